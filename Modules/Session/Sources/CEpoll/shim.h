// Linux's readiness API, which Glibc's Swift module does not include: the event loop waits on sockets with epoll
// and is woken from other threads through an eventfd.
#include <sys/epoll.h>
#include <sys/eventfd.h>
