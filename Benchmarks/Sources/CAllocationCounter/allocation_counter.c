// Counts heap allocations by defining the allocation functions in the benchmark executable: on glibc the
// dynamic linker binds every library's calls (the Swift runtime's, Foundation's) to the executable's
// definitions, which count and forward to glibc's own (`__libc_malloc` and friends). Counting is one relaxed
// atomic increment per allocation; frees are not counted.
#include "allocation_counter.h"

#if defined(__GLIBC__)
#include <errno.h>
#include <stddef.h>
#include <stdatomic.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);

static _Atomic uint64_t allocations = 0;

static inline void count_one(void) { atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed); }

void *malloc(size_t size) {
    count_one();
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
    count_one();
    return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
    count_one();
    return __libc_realloc(pointer, size);
}

void *memalign(size_t alignment, size_t size) {
    count_one();
    return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    count_one();
    return __libc_memalign(alignment, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
    if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0) return EINVAL;
    count_one();
    void *pointer = __libc_memalign(alignment, size);
    if (pointer == NULL) return ENOMEM;
    *result = pointer;
    return 0;
}

uint64_t allocation_count(void) { return atomic_load_explicit(&allocations, memory_order_relaxed); }
int allocation_counter_installed(void) { return 1; }
#else
uint64_t allocation_count(void) { return 0; }
int allocation_counter_installed(void) { return 0; }
#endif
