// One-shot readiness of file descriptors (Linux epoll), for the benchmarks' floor of a
// PostgreSQL store that waits for libpq's socket without blocking a thread of Swift's
// cooperative pool. The epoll structures stay in C; on other systems every call fails with -1.
#ifndef C_READINESS_POLLER_H
#define C_READINESS_POLLER_H

/// A new poller, or -1.
int readiness_poller_create(void);

/// Arms `fd` for one report of readability. Returns 0, or -1 with errno set.
int readiness_poller_arm(int poller, int fd);

/// Blocks until an armed descriptor is readable and returns it, or returns -1 (errno set).
int readiness_poller_wait(int poller);

#endif
