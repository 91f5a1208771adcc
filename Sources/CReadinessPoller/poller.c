#include "CReadinessPoller.h"

#include <errno.h>

#ifdef __linux__
#include <sys/epoll.h>

int readiness_poller_create(void) { return epoll_create1(EPOLL_CLOEXEC); }

int readiness_poller_arm(int poller, int fd) {
    struct epoll_event event = {.events = EPOLLIN | EPOLLONESHOT, .data = {.fd = fd}};
    // Re-arm a descriptor already in the set; add one that is new (or whose number was reused
    // after a close, which removed it from the set).
    if (epoll_ctl(poller, EPOLL_CTL_MOD, fd, &event) == 0) return 0;
    if (errno != ENOENT) return -1;
    return epoll_ctl(poller, EPOLL_CTL_ADD, fd, &event);
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

int readiness_poller_arm(int poller, int fd) {
    (void)poller;
    (void)fd;
    errno = ENOSYS;
    return -1;
}

int readiness_poller_wait(int poller) {
    (void)poller;
    errno = ENOSYS;
    return -1;
}
#endif
