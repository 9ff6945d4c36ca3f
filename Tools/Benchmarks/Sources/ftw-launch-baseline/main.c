/*
 * ftw-launch-baseline: the floor `ftw-headless launch-clock` measures the client's first content against.
 *
 *     ftw-launch-baseline DATA_FOLDER --origin SECONDS
 *
 * What a plain C program must do to show the same sealed files: read the phone's key (DATA_FOLDER/phone.key), then
 * read every sealed file in DATA_FOLDER/sealed, check its header and AES-256-GCM-open it under the key, with the
 * same associated data as the client (the 22-byte header, then the file name). It decodes nothing and draws nothing:
 * the bytes are in memory, opened, and that is all. It prints, as one JSON line, the milliseconds from --origin (the
 * moment, in seconds since 1970, its parent started it) to its main and to the last file opened, with the files and
 * bytes it opened, so the launch clock reads it as it reads `launch-once`.
 *
 * OpenSSL is initialised as the client initialises it (no configuration file), so the two differ only in what they
 * do after it. Exits 1, naming the file, when a file does not open: a baseline that skipped work would flatter us.
 */
#include <dirent.h>
#include <fcntl.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

enum { header_size = 22, nonce_size = 12, tag_size = 16, key_size = 32, file_limit = 16 << 20 };

static double now_seconds(clockid_t clock) {
    struct timespec moment;
    clock_gettime(clock, &moment);
    return (double)moment.tv_sec + (double)moment.tv_nsec / 1e9;
}

/* The processor time so far, in seconds: called once the last file is opened, and never inlined, so callgrind's
 * count of a run can end where it is entered (`--dump-before=ftw_at_first_content`), as the client's ends at its
 * `ProcessorTime.atFirstContent()`. */
__attribute__((noinline)) double ftw_at_first_content(void) { return now_seconds(CLOCK_PROCESS_CPUTIME_ID); }

/* The bytes of `path`, at most `limit`, in a buffer the caller frees; NULL when it cannot be read. */
static unsigned char *read_file(const char *path, size_t limit, size_t *size) {
    int descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (descriptor < 0) return NULL;
    struct stat information;
    if (fstat(descriptor, &information) != 0 || !S_ISREG(information.st_mode)
        || (size_t)information.st_size > limit) {
        close(descriptor);
        return NULL;
    }
    unsigned char *bytes = malloc((size_t)information.st_size + 1);
    size_t done = 0;
    while (bytes != NULL && done < (size_t)information.st_size) {
        ssize_t got = read(descriptor, bytes + done, (size_t)information.st_size - done);
        if (got <= 0) break;
        done += (size_t)got;
    }
    close(descriptor);
    if (bytes == NULL || done != (size_t)information.st_size) {
        free(bytes);
        return NULL;
    }
    *size = done;
    return bytes;
}

/* Opens one sealed file named `name` in place; the plaintext's length, or -1 when it does not open. */
static long open_sealed(EVP_CIPHER_CTX *context, const EVP_CIPHER *cipher, const unsigned char *key,
                        const char *name, unsigned char *file, size_t size, unsigned char *plain) {
    if (size < header_size + nonce_size + tag_size || memcmp(file, "FTWS", 4) != 0 || file[4] != 1) return -1;
    size_t name_length = strlen(name);
    unsigned char associated[header_size + 256];
    if (name_length > 256) return -1;
    memcpy(associated, file, header_size);
    memcpy(associated + header_size, name, name_length);
    const unsigned char *nonce = file + header_size;
    const unsigned char *ciphertext = nonce + nonce_size;
    size_t ciphertext_size = size - header_size - nonce_size - tag_size;
    unsigned char *tag = file + size - tag_size;
    int length = 0;
    int final_length = 0;
    if (EVP_DecryptInit_ex(context, cipher, NULL, key, nonce) != 1
        || EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_SET_TAG, tag_size, tag) != 1
        || EVP_DecryptUpdate(context, NULL, &length, associated, (int)(header_size + name_length)) != 1
        || EVP_DecryptUpdate(context, plain, &length, ciphertext, (int)ciphertext_size) != 1
        || EVP_DecryptFinal_ex(context, plain + length, &final_length) != 1) {
        return -1;
    }
    return (long)length + final_length;
}

int main(int argc, char **argv) {
    double main_at = now_seconds(CLOCK_REALTIME);
    if (argc != 4 || strcmp(argv[2], "--origin") != 0) {
        fprintf(stderr, "usage: ftw-launch-baseline DATA_FOLDER --origin SECONDS\n");
        return 2;
    }
    double origin = strtod(argv[3], NULL);
    char path[4096];
    snprintf(path, sizeof path, "%s/phone.key", argv[1]);
    size_t key_length = 0;
    unsigned char *key = read_file(path, key_size, &key_length);
    if (key == NULL || key_length != key_size) {
        fprintf(stderr, "ftw-launch-baseline: %s is not a %d-byte key\n", path, key_size);
        return 1;
    }
    OPENSSL_init_crypto(OPENSSL_INIT_NO_LOAD_CONFIG, NULL);
    EVP_CIPHER *cipher = EVP_CIPHER_fetch(NULL, "AES-256-GCM", NULL);
    EVP_CIPHER_CTX *context = EVP_CIPHER_CTX_new();
    if (cipher == NULL || context == NULL) {
        fprintf(stderr, "ftw-launch-baseline: libcrypto has no AES-256-GCM\n");
        return 1;
    }
    snprintf(path, sizeof path, "%s/sealed", argv[1]);
    DIR *folder = opendir(path);
    if (folder == NULL) {
        fprintf(stderr, "ftw-launch-baseline: %s cannot be listed\n", path);
        return 1;
    }
    int files = 0;
    long bytes = 0;
    struct dirent *entry;
    while ((entry = readdir(folder)) != NULL) {
        if (entry->d_name[0] == '.') continue; /* ., .. and the temporary files of writes */
        snprintf(path, sizeof path, "%s/sealed/%s", argv[1], entry->d_name);
        size_t size = 0;
        unsigned char *file = read_file(path, file_limit, &size);
        unsigned char *plain = file == NULL ? NULL : malloc(size);
        long opened = plain == NULL ? -1 : open_sealed(context, cipher, key, entry->d_name, file, size, plain);
        free(file);
        free(plain);
        if (opened < 0) {
            fprintf(stderr, "ftw-launch-baseline: %s does not open under %s/phone.key\n", path, argv[1]);
            return 1;
        }
        files += 1;
        bytes += opened;
    }
    closedir(folder);
    double content_at = now_seconds(CLOCK_REALTIME);
    double content_cpu = ftw_at_first_content();
    printf("{\"contentCPUMs\":%.3f,\"contentMs\":%.3f,\"files\":%d,\"mainMs\":%.3f,\"plainBytes\":%ld}\n",
           content_cpu * 1000, (content_at - origin) * 1000, files, (main_at - origin) * 1000, bytes);
    EVP_CIPHER_CTX_free(context);
    EVP_CIPHER_free(cipher);
    free(key);
    return 0;
}
