/*
 * ftw-frame-floor: the floor `ftw-bench frame --real` sets the client's cost per live frame against.
 *
 *     ftw-frame-floor open    FOLDER N    ChaCha20-Poly1305 open of each frame + a walk of its CBOR envelope
 *     ftw-frame-floor foreign FOLDER N    the same frames opened under another key: the failing open alone
 *     ftw-frame-floor wss     FOLDER N    each frame as a TLS record: SSL_read, WebSocket parse, open, walk
 *
 * FOLDER holds what `ftw-bench` wrote: `frames.bin` (the magic "FTWF", a little-endian u32 count, the receiving
 * key, then each Noise transport message as a u32 length and its bytes: an 8-byte big-endian sequence number, the
 * ciphertext of a 512-byte frame, the tag), and for `wss` a server certificate and key (`cert.pem`, `key.pem`).
 *
 * The work measured sits between `ftw_bench_window_open` and `ftw_bench_window_close`, where callgrind zeroes and
 * dumps its counts (`--zero-before`, `--dump-before`), as in `ftw-bench` (`BenchWindow`). Everything a C program would hold across
 * frames is made before the window: one keyed cipher context, one 16 KiB read buffer (never cleared), and for `wss`
 * the TLS session (handshake done, the tickets read) with every record already written by the server side, so the
 * window holds only the client's read of each frame. It prints a checksum (items walked) and exits 1 when a frame
 * does not open (or, for `foreign`, when one does): a floor that skipped work would flatter the client.
 */
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/ssl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { key_size = 32, tag_size = 16, sequence_size = 8, frame_header = 6, read_room = 16384 };

/* Edges callgrind finds by name; different bodies, so the linker never folds them into one address. */
static volatile int edges_opened, edges_closed;
__attribute__((noinline)) void ftw_bench_window_open(void) { edges_opened++; }
__attribute__((noinline)) void ftw_bench_window_close(void) { edges_closed += 2; }

struct frames {
    unsigned char key[key_size];
    uint32_t count;
    unsigned char **bytes;
    uint32_t *sizes;
};

static int fail(const char *what) {
    fprintf(stderr, "ftw-frame-floor: %s\n", what);
    ERR_print_errors_fp(stderr);
    return 1;
}

static uint32_t little_u32(const unsigned char *bytes) {
    return (uint32_t)bytes[0] | (uint32_t)bytes[1] << 8 | (uint32_t)bytes[2] << 16 | (uint32_t)bytes[3] << 24;
}

static int load(const char *folder, struct frames *frames) {
    char path[4096];
    snprintf(path, sizeof path, "%s/frames.bin", folder);
    FILE *file = fopen(path, "rb");
    if (file == NULL) return fail("cannot open frames.bin");
    unsigned char head[8];
    if (fread(head, 1, 8, file) != 8 || memcmp(head, "FTWF", 4) != 0) return fail("frames.bin is not FTWF");
    frames->count = little_u32(head + 4);
    if (fread(frames->key, 1, key_size, file) != key_size) return fail("frames.bin has no key");
    frames->bytes = calloc(frames->count, sizeof *frames->bytes);
    frames->sizes = calloc(frames->count, sizeof *frames->sizes);
    for (uint32_t index = 0; index < frames->count; index++) {
        unsigned char size[4];
        if (fread(size, 1, 4, file) != 4) return fail("frames.bin is cut short");
        frames->sizes[index] = little_u32(size);
        frames->bytes[index] = malloc(frames->sizes[index]);
        if (fread(frames->bytes[index], 1, frames->sizes[index], file) != frames->sizes[index]) {
            return fail("frames.bin is cut short");
        }
    }
    fclose(file);
    return 0;
}

/* Walks one CBOR item and everything in it; returns where it ends, or NULL on bytes that are not CBOR. */
static const unsigned char *walk(const unsigned char *at, const unsigned char *end, long *items) {
    if (at >= end) return NULL;
    unsigned major = *at >> 5, info = *at & 31;
    at++;
    uint64_t argument = info;
    if (info >= 24 && info <= 27) {
        unsigned size = 1u << (info - 24);
        if ((size_t)(end - at) < size) return NULL;
        argument = 0;
        for (unsigned index = 0; index < size; index++) argument = argument << 8 | *at++;
    } else if (info > 27) {
        return NULL;
    }
    (*items)++;
    switch (major) {
    case 2:
    case 3:
        if ((uint64_t)(end - at) < argument) return NULL;
        return at + argument;
    case 4:
    case 5:
        for (uint64_t index = 0; index < (major == 5 ? 2 * argument : argument); index++) {
            if ((at = walk(at, end, items)) == NULL) return NULL;
        }
        return at;
    case 6:
        return walk(at, end, items);
    default:
        return at;
    }
}

/* Opens one transport message with `context` (keyed once) into `plain`; walks the frame's envelope. */
static int open_and_walk(EVP_CIPHER_CTX *context, const unsigned char *wire, uint32_t size, unsigned char *plain,
                         long *items) {
    if (size < sequence_size + tag_size) return 0;
    unsigned char nonce[12] = {0};
    for (int index = 0; index < 8; index++) nonce[4 + index] = wire[7 - index];
    int length = 0, final = 0;
    uint32_t cipher = size - sequence_size - tag_size;
    if (EVP_DecryptInit_ex(context, NULL, NULL, NULL, nonce) != 1
        || EVP_DecryptUpdate(context, NULL, &length, wire, sequence_size) != 1
        || EVP_DecryptUpdate(context, plain, &length, wire + sequence_size, (int)cipher) != 1
        || EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_SET_TAG, tag_size, (void *)(wire + size - tag_size)) != 1
        || EVP_DecryptFinal_ex(context, plain + length, &final) != 1) {
        return 0;
    }
    uint32_t payload = (uint32_t)plain[4] << 8 | plain[5];
    if (frame_header + payload > cipher) return 0;
    return walk(plain + frame_header, plain + frame_header + payload, items) != NULL;
}

static EVP_CIPHER_CTX *keyed(const unsigned char *key) {
    EVP_CIPHER_CTX *context = EVP_CIPHER_CTX_new();
    if (context == NULL || EVP_DecryptInit_ex(context, EVP_chacha20_poly1305(), NULL, key, NULL) != 1) return NULL;
    return context;
}

static int direct(const struct frames *frames, uint32_t count, int foreign) {
    unsigned char key[key_size];
    memcpy(key, frames->key, key_size);
    if (foreign) key[0] ^= 0x5a;
    EVP_CIPHER_CTX *context = keyed(key);
    unsigned char *plain = malloc(read_room);
    if (context == NULL || plain == NULL) return fail("no cipher context");
    long items = 0, opened = 0;
    ftw_bench_window_open();
    for (uint32_t index = 0; index < count; index++) {
        opened += open_and_walk(context, frames->bytes[index], frames->sizes[index], plain, &items);
    }
    ftw_bench_window_close();
    if (opened != (foreign ? 0 : (long)count)) return fail(foreign ? "a foreign frame opened" : "a frame did not open");
    printf("floor %s: %u frames, %ld items\n", foreign ? "foreign" : "open", count, items);
    return 0;
}

/* Moves what `from` wrote to its write BIO into `to`'s read BIO. */
static void shuttle(SSL *from, SSL *to) {
    unsigned char bytes[read_room];
    int got;
    while ((got = BIO_read(SSL_get_wbio(from), bytes, sizeof bytes)) > 0) BIO_write(SSL_get_rbio(to), bytes, got);
}

static int tls(const char *folder, const struct frames *frames, uint32_t count) {
    char certificate[4096], key[4096];
    snprintf(certificate, sizeof certificate, "%s/cert.pem", folder);
    snprintf(key, sizeof key, "%s/key.pem", folder);
    SSL_CTX *server_context = SSL_CTX_new(TLS_server_method());
    SSL_CTX *client_context = SSL_CTX_new(TLS_client_method());
    if (server_context == NULL || client_context == NULL
        || SSL_CTX_use_certificate_chain_file(server_context, certificate) != 1
        || SSL_CTX_use_PrivateKey_file(server_context, key, SSL_FILETYPE_PEM) != 1) {
        return fail("cannot set up TLS");
    }
    SSL *server = SSL_new(server_context), *client = SSL_new(client_context);
    SSL_set_bio(server, BIO_new(BIO_s_mem()), BIO_new(BIO_s_mem()));
    SSL_set_bio(client, BIO_new(BIO_s_mem()), BIO_new(BIO_s_mem()));
    SSL_set_accept_state(server);
    SSL_set_connect_state(client);
    for (int round = 0; round < 16 && !(SSL_is_init_finished(server) && SSL_is_init_finished(client)); round++) {
        SSL_do_handshake(client);
        shuttle(client, server);
        SSL_do_handshake(server);
        shuttle(server, client);
    }
    if (!SSL_is_init_finished(client)) return fail("the TLS handshake did not finish");
    unsigned char *room = malloc(read_room), *plain = malloc(read_room);
    /* The session tickets the server sends after the handshake, read before anything is counted. */
    SSL_write(server, "x", 1);
    shuttle(server, client);
    if (SSL_read(client, room, read_room) != 1) return fail("the first record did not arrive");
    unsigned char **records = calloc(count, sizeof *records);
    int *sizes = calloc(count, sizeof *sizes);
    for (uint32_t index = 0; index < count; index++) {
        uint32_t size = frames->sizes[index];
        unsigned char *frame = malloc(size + 4);
        frame[0] = 0x82;
        frame[1] = 126;
        frame[2] = (unsigned char)(size >> 8);
        frame[3] = (unsigned char)size;
        memcpy(frame + 4, frames->bytes[index], size);
        if (SSL_write(server, frame, (int)size + 4) != (int)size + 4) return fail("the server could not write");
        free(frame);
        records[index] = malloc(read_room);
        sizes[index] = BIO_read(SSL_get_wbio(server), records[index], read_room);
    }
    EVP_CIPHER_CTX *context = keyed(frames->key);
    if (context == NULL) return fail("no cipher context");
    long items = 0, opened = 0;
    ftw_bench_window_open();
    for (uint32_t index = 0; index < count; index++) {
        BIO_write(SSL_get_rbio(client), records[index], sizes[index]);
        int got = SSL_read(client, room, read_room);
        if (got < 4 || room[0] != 0x82 || room[1] != 126) break;
        uint32_t size = (uint32_t)room[2] << 8 | room[3];
        if (size + 4 != (uint32_t)got) break;
        opened += open_and_walk(context, room + 4, size, plain, &items);
    }
    ftw_bench_window_close();
    if (opened != (long)count) return fail("a TLS frame did not read or open");
    printf("floor wss: %u frames, %ld items\n", count, items);
    return 0;
}

int main(int count, char **arguments) {
    /* Callgrind does not zero its counts the first time it enters the opening edge (it learns the name then): an
     * empty window first takes that, and its dump, which starts at basic block 0, is left out by the reader. */
    ftw_bench_window_open();
    ftw_bench_window_close();
    if (count != 4) {
        fprintf(stderr, "usage: ftw-frame-floor open|foreign|wss FOLDER N\n");
        return 2;
    }
    struct frames frames;
    if (load(arguments[2], &frames) != 0) return 1;
    long wanted = strtol(arguments[3], NULL, 10);
    if (wanted < 1 || wanted > (long)frames.count) return fail("N must be between 1 and the frames in frames.bin");
    if (strcmp(arguments[1], "open") == 0) return direct(&frames, (uint32_t)wanted, 0);
    if (strcmp(arguments[1], "foreign") == 0) return direct(&frames, (uint32_t)wanted, 1);
    if (strcmp(arguments[1], "wss") == 0) return tls(arguments[2], &frames, (uint32_t)wanted);
    fprintf(stderr, "usage: ftw-frame-floor open|foreign|wss FOLDER N\n");
    return 2;
}
