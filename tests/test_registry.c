/* tests/test_registry.c: the registry's own rules (core/registry.c,
 * issue 34 review): registrations only while the host has it open, one-
 * line descriptions and comments, and a component's random stream derived
 * from its whole name (two long names that share their first 48
 * characters get different streams); and the check of a component's ops
 * table against its kind's required members (app/components.c), on every
 * built-in and on tables missing each member.
 */
#include "app/components.h"
#include "core/registry.h"
#include "core/registry_host.h"
#include "pnr/strategy_api.h"
#include "sched/allocation.h"
#include "sched/order.h"
#include "sched/packing.h"
#include "core/rng.h"
#include "tests/testutil.h"

#include <string.h>

/* A backfilling table stands in: the registry does not read it. */
static const struct { void *f; } ops = {(void *)0};

START_TEST(test_closed_refuses)
{
    pnrsim_registry_close();
    pnrsim_mark m = pnrsim_mark_get();
    ck_assert_int_eq(pnrsim_register(pnrsim_registry_get(), PNRSIM_KIND_BACKFILL, "CLOSED_A",
                                     "closed", &ops), PNRSIM_EINVAL);
    const char *what;
    ck_assert_int_eq(pnrsim_first_error(&what), PNRSIM_EINVAL);
    ck_assert_ptr_nonnull(strstr(what, "backfill CLOSED_A: registered outside the plugin's init"));
    ck_assert_ptr_null(pnrsim_find(PNRSIM_KIND_BACKFILL, "CLOSED_A"));
    ck_assert_int_eq(pnrsim_register_key(pnrsim_registry_get(), "closed", "k", PNRSIM_KEY_DOUBLE,
                                         0, 1, 0, "", "closed"), PNRSIM_EINVAL);
    /* open: accepted; closed again: refused again */
    pnrsim_mark_get();
    pnrsim_registry_open();
    ck_assert_int_eq(pnrsim_register(pnrsim_registry_get(), PNRSIM_KIND_BACKFILL, "OPEN_A",
                                     "open", &ops), PNRSIM_OK);
    pnrsim_registry_close();
    ck_assert_int_eq(pnrsim_first_error(NULL), PNRSIM_OK);
    ck_assert_int_eq(pnrsim_register(pnrsim_registry_get(), PNRSIM_KIND_BACKFILL, "OPEN_B",
                                     "closed", &ops), PNRSIM_EINVAL);
    pnrsim_rollback(m);
    ck_assert_ptr_null(pnrsim_find(PNRSIM_KIND_BACKFILL, "OPEN_A"));
}
END_TEST

START_TEST(test_one_line)
{
    pnrsim_registry_open();
    pnrsim_mark m = pnrsim_mark_get();
    ck_assert_int_eq(pnrsim_register(pnrsim_registry_get(), PNRSIM_KIND_BACKFILL, "NL",
                                     "two\nlines", &ops), PNRSIM_EINVAL);
    ck_assert_int_eq(pnrsim_register(pnrsim_registry_get(), PNRSIM_KIND_BACKFILL, "TAB",
                                     "a\ttab", &ops), PNRSIM_EINVAL);
    ck_assert_int_eq(pnrsim_register_key(pnrsim_registry_get(), "nl", "k", PNRSIM_KEY_DOUBLE,
                                         0, 1, 0, "", "two\nlines"), PNRSIM_EINVAL);
    ck_assert_int_eq(pnrsim_register_key(pnrsim_registry_get(), "nl", "k", PNRSIM_KEY_DOUBLE,
                                         0, 1, 0, "M\rB", "unit"), PNRSIM_EINVAL);
    ck_assert_int_eq(pnrsim_register(pnrsim_registry_get(), PNRSIM_KIND_BACKFILL, "ONELINE",
                                     "one line", &ops), PNRSIM_OK);
    pnrsim_registry_close();
    pnrsim_rollback(m);
}
END_TEST

START_TEST(test_stream_whole_name)
{
    pnrsim_ctx c = {NULL, 12345, RNG_XOSHIRO256SS};
    char a[200], b[200];
    memset(a, 'x', sizeof a - 2);
    memcpy(b, a, sizeof b);
    a[sizeof a - 2] = 'A';
    b[sizeof b - 2] = 'B';
    a[sizeof a - 1] = b[sizeof b - 1] = '\0';
    rng_t *ra = pnrsim_ctx_stream(&c, a, 0), *rb = pnrsim_ctx_stream(&c, b, 0);
    rng_t *ra2 = pnrsim_ctx_stream(&c, a, 0);
    uint64_t xa = rng_next64(ra), xb = rng_next64(rb), xa2 = rng_next64(ra2);
    ck_assert_uint_ne(xa, xb);  /* the last character counts */
    ck_assert_uint_eq(xa, xa2); /* and the stream is reproducible */
    rng_free(ra);
    rng_free(rb);
    rng_free(ra2);
    /* a short name: the stream "component:NAME", as before */
    rng_t *s = pnrsim_ctx_stream(&c, "P2C", 3), *t = rng_stream_gen(c.generator, 12345,
                                                                     "component:P2C", 3);
    ck_assert_uint_eq(rng_next64(s), rng_next64(t));
    rng_free(s);
    rng_free(t);
}
END_TEST

static double t_key(void *state, const sched_job_info *j, double now)
{
    (void)state;
    (void)j;
    return now;
}
static bool t_better(void *state, const sched_slot_info *a, const sched_slot_info *b,
                     const sched_job_info *j)
{
    (void)state;
    (void)b;
    (void)j;
    return a->nfree > 0;
}
static int t_manager(void *state, pnr_host *h, const pnr_job *j, int node)
{
    (void)state;
    (void)h;
    (void)j;
    return node;
}
static int t_managers(void *state, int *out)
{
    (void)state;
    out[0] = 0;
    return 1;
}

/* components_missing on a table of kind k. */
static const char *missing(pnrsim_kind k, const void *table)
{
    pnrsim_component c = {.kind = k, .ops = table};
    return components_missing(&c);
}

START_TEST(test_required_members)
{
    /* Every built-in keeps its kind's contract. */
    components_init();
    for (int k = 0; k < PNRSIM_NKINDS; k++)
        for (int i = 0; i < pnrsim_count((pnrsim_kind)k); i++)
            ck_assert_ptr_null(components_missing(pnrsim_at((pnrsim_kind)k, i)));
    sched_order_ops o = {.key = NULL};
    ck_assert_str_eq(missing(PNRSIM_KIND_PRIORITY, &o), "its sched_order_ops has no .key (required)");
    o.key = t_key;
    ck_assert_ptr_null(missing(PNRSIM_KIND_PRIORITY, &o));
    o.bucket = (sched_order_bucket)7;
    ck_assert_ptr_nonnull(missing(PNRSIM_KIND_PRIORITY, &o));
    sched_packing_ops p = {.flags = 0};
    ck_assert_ptr_nonnull(strstr(missing(PNRSIM_KIND_PACKING, &p), "no .better"));
    p.flags = SCHED_PACK_FIRST;
    ck_assert_ptr_null(missing(PNRSIM_KIND_PACKING, &p));
    p.flags = 0;
    p.better = t_better;
    ck_assert_ptr_null(missing(PNRSIM_KIND_PACKING, &p));
    sched_alloc_ops a = {.choose = NULL};
    ck_assert_ptr_nonnull(strstr(missing(PNRSIM_KIND_ALLOCATION, &a), "no .choose"));
    pnr_strategy_ops s = {.broadcast = PNR_BROADCAST_NONE};
    ck_assert_ptr_nonnull(strstr(missing(PNRSIM_KIND_STRATEGY, &s), "no .manager"));
    s.manager = t_manager;
    ck_assert_ptr_null(missing(PNRSIM_KIND_STRATEGY, &s));
    s.broadcast = PNR_BROADCAST_MANAGERS;
    ck_assert_ptr_nonnull(strstr(missing(PNRSIM_KIND_STRATEGY, &s), "no .managers"));
    s.managers = t_managers;
    ck_assert_ptr_null(missing(PNRSIM_KIND_STRATEGY, &s));
    s.coordination = (pnr_coordination)5;
    ck_assert_ptr_nonnull(missing(PNRSIM_KIND_STRATEGY, &s));
    /* a backfilling policy has no required member */
    ck_assert_ptr_null(missing(PNRSIM_KIND_BACKFILL, &ops));
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("registry");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_closed_refuses);
    tcase_add_test(tc, test_one_line);
    tcase_add_test(tc, test_stream_whole_name);
    tcase_add_test(tc, test_required_members);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN()
