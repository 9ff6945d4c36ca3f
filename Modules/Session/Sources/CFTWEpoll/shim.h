// Linux's readiness API, which Glibc's Swift module does not include: the event loop waits on sockets with epoll,
// is woken from other threads through an eventfd, and times its clock's sleeps with a timerfd.
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>
