#include "CReadinessPoller.h"

#include <errno.h>

#ifdef __linux__
#include <sys/epoll.h>

int readiness_poller_create(void) { return epoll_create1(EPOLL_CLOEXEC); }

int readiness_poller_arm(int poller, int fd, int first) {
    struct epoll_event event = {.events = EPOLLIN | EPOLLONESHOT, .data = {.fd = fd}};
    return epoll_ctl(poller, first ? EPOLL_CTL_ADD : EPOLL_CTL_MOD, fd, &event);
}

int readiness_poller_wait(int poller) {
    struct epoll_event event;
    int count = epoll_wait(poller, &event, 1, -1);
    return count == 1 ? event.data.fd : -1;
}
#else
int readiness_poller_create(void) {
    errno = ENOSYS;
    return -1;
}

int readiness_poller_arm(int poller, int fd, int first) {
    (void)poller;
    (void)fd;
    (void)first;
    errno = ENOSYS;
    return -1;
}

int readiness_poller_wait(int poller) {
    (void)poller;
    errno = ENOSYS;
    return -1;
}
#endif
