/* tests/test_list.c: the intrusive list of core/list.h: FIFO order,
 * removal from anywhere, unlinked nodes, and iteration that unlinks. */
#include "core/list.h"
#include "tests/testutil.h"

struct item {
    int v;
    list_t node;
};

/* Check that walking `head` forwards gives want[0..n-1] and backwards
 * gives the reverse, i.e. the list invariant holds. */
static void expect(list_t *head, const int *want, int n)
{
    int i = 0;
    list_for_each(it, head) {
        ck_assert_int_lt(i, n);
        ck_assert_int_eq(container_of(it, struct item, node)->v, want[i]);
        ck_assert_ptr_eq(it->next->prev, it);
        i++;
    }
    ck_assert_int_eq(i, n);
    for (list_t *it = head->prev; it != head; it = it->prev)
        ck_assert_int_eq(container_of(it, struct item, node)->v, want[--i]);
    ck_assert_int_eq(i, 0);
    ck_assert(list_empty(head) == (n == 0));
}

START_TEST(fifo_and_removal)
{
    list_t head = LIST_INIT(head);
    struct item it[5];
    for (int i = 0; i < 5; i++) {
        it[i].v = i;
        list_init(&it[i].node);
        ck_assert(!list_linked(&it[i].node));
    }
    ck_assert_ptr_null(list_first(&head));
    ck_assert_ptr_null(list_pop_head(&head));
    for (int i = 0; i < 5; i++)
        list_add_tail(&head, &it[i].node);
    expect(&head, (int[]){0, 1, 2, 3, 4}, 5);
    list_del(&it[2].node); /* middle */
    ck_assert(!list_linked(&it[2].node));
    list_del(&it[2].node); /* second removal is harmless */
    expect(&head, (int[]){0, 1, 3, 4}, 4);
    list_del(&it[4].node); /* tail */
    list_del(&it[0].node); /* head */
    expect(&head, (int[]){1, 3}, 2);
    list_add_head(&head, &it[0].node);
    list_add_before(&it[3].node, &it[2].node);
    list_add_before(&head, &it[4].node); /* before the head = at the tail */
    expect(&head, (int[]){0, 1, 2, 3, 4}, 5);
    ck_assert_ptr_eq(list_last(&head), &it[4].node);
    list_t *n0 = list_pop_head(&head);
    struct item *first = container_of(n0, struct item, node);
    ck_assert_int_eq(first->v, 0);
    expect(&head, (int[]){1, 2, 3, 4}, 4);
}
END_TEST

START_TEST(unlink_while_iterating)
{
    list_t head;
    list_init(&head);
    struct item it[6];
    for (int i = 0; i < 6; i++) {
        it[i].v = i;
        list_add_tail(&head, &it[i].node);
    }
    list_for_each_safe(n, &head) {
        if (container_of(n, struct item, node)->v % 2 == 0)
            list_del(n);
    }
    expect(&head, (int[]){1, 3, 5}, 3);
    list_for_each_safe(n, &head) list_del(n);
    expect(&head, NULL, 0);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("list");
    TCase *tc = tcase_create("list");
    tcase_add_test(tc, fifo_and_removal);
    tcase_add_test(tc, unlink_while_iterating);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN()
