// Counts heap allocations of a process, to check that a steady-state frame path allocates nothing.
// Preloaded by Benchmarks/run-compositing-benchmark.sh (LD_PRELOAD); the benchmark reads the count through
// streamlens_malloc_calls(), found with dlsym. glibc only: it forwards to glibc's internal __libc_* allocators.
#include <stdatomic.h>
#include <stddef.h>
#include <errno.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);

static atomic_ulong allocation_calls;

void *malloc(size_t size) {
    atomic_fetch_add_explicit(&allocation_calls, 1, memory_order_relaxed);
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
    atomic_fetch_add_explicit(&allocation_calls, 1, memory_order_relaxed);
    return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
    atomic_fetch_add_explicit(&allocation_calls, 1, memory_order_relaxed);
    return __libc_realloc(pointer, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    atomic_fetch_add_explicit(&allocation_calls, 1, memory_order_relaxed);
    return __libc_memalign(alignment, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
    atomic_fetch_add_explicit(&allocation_calls, 1, memory_order_relaxed);
    void *pointer = __libc_memalign(alignment, size);
    if (pointer == NULL) return ENOMEM;
    *result = pointer;
    return 0;
}

unsigned long streamlens_malloc_calls(void) {
    return atomic_load_explicit(&allocation_calls, memory_order_relaxed);
}
