/* core/list.h: one intrusive doubly linked list for the whole simulator.
 *
 * In the spirit of the Linux kernel's list.h: a list_t node is embedded in
 * the struct that is listed (a process in a wait queue, a job in the queue,
 * a message in the free pool), and container_of() recovers the struct from
 * the node.  A list head is a list_t too: an empty list is a head whose
 * next and prev point at itself, so insertion and removal never test for
 * NULL and cost O(1).  Nothing here allocates.
 *
 * Invariant of every list: following next from the head visits each member
 * once and comes back to the head; prev is the exact reverse.  A node that
 * is on no list is "unlinked": next == prev == itself (list_init), so
 * list_linked() can tell, and a second list_del() is harmless.
 */
#ifndef PNRSIM_CORE_LIST_H
#define PNRSIM_CORE_LIST_H

#include <stddef.h>
#include <stdbool.h>

typedef struct list {
    struct list *next, *prev;
} list_t;

/* The struct of type `type` whose member `member` is at `ptr`. */
#define container_of(ptr, type, member)                                        \
    ((type *)((char *)(ptr) - offsetof(type, member)))

/* An empty list head, or an unlinked node, for static initialisation. */
#define LIST_INIT(name) { &(name), &(name) }

/* Make `l` an empty head or an unlinked node. */
static inline void list_init(list_t *l) { l->next = l->prev = l; }

/* True when the head `l` has no members. */
static inline bool list_empty(const list_t *l) { return l->next == l; }

/* True when the node `n` is on some list (not merely initialised). */
static inline bool list_linked(const list_t *n) { return n->next != n; }

/* Insert `n` between the adjacent nodes `a` and `b`. */
static inline void list_insert_between(list_t *n, list_t *a, list_t *b)
{
    n->prev = a;
    n->next = b;
    a->next = n;
    b->prev = n;
}

/* Append `n` at the tail of `head` (FIFO order). */
static inline void list_add_tail(list_t *head, list_t *n)
{
    list_insert_between(n, head->prev, head);
}

/* Insert `n` at the front of `head`. */
static inline void list_add_head(list_t *head, list_t *n)
{
    list_insert_between(n, head, head->next);
}

/* Insert `n` just before the member `pos` (pos may be the head: tail). */
static inline void list_add_before(list_t *pos, list_t *n)
{
    list_insert_between(n, pos->prev, pos);
}

/* Unlink `n` from its list and leave it unlinked; harmless if it is not
 * on one. */
static inline void list_del(list_t *n)
{
    n->prev->next = n->next;
    n->next->prev = n->prev;
    n->next = n->prev = n;
}

/* The first member's node, or NULL when the list is empty. */
static inline list_t *list_first(const list_t *head)
{
    return list_empty(head) ? NULL : head->next;
}

/* The last member's node, or NULL when the list is empty. */
static inline list_t *list_last(const list_t *head)
{
    return list_empty(head) ? NULL : head->prev;
}

/* Remove and return the first member's node, or NULL when empty. */
static inline list_t *list_pop_head(list_t *head)
{
    list_t *n = list_first(head);
    if (n)
        list_del(n);
    return n;
}

/* Iterate over the nodes of `head`; the body must not unlink `it`
 * (use list_for_each_safe for that). */
#define list_for_each(it, head)                                                \
    for (list_t *it = (head)->next; it != (head); it = it->next)

/* Iterate over the nodes of `head`; the body may unlink `it`. */
#define list_for_each_safe(it, head)                                           \
    for (list_t *it = (head)->next, *it##_next_ = it->next; it != (head);      \
         it = it##_next_, it##_next_ = it->next)

#endif
