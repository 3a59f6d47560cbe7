/* core/mem.c: allocation wrappers (see mem.h). */
#include "core/mem.h"

#include <stdio.h>
#include <stdlib.h>

static void out_of_memory(size_t n)
{
    fprintf(stderr, "pnrsim: out of memory (%zu bytes)\n", n);
    abort();
}

void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        out_of_memory(n * size);
    return p;
}

void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q)
        out_of_memory(n);
    return q;
}
