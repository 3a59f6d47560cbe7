/* tests/test_plugin_p2c.c: the example strategy examples/plugins/p2c.c
 * (Infiniswap's power of two choices, NSDI'17 §4.2), compiled into the
 * test and registered as a plugin would be (pnrsim_plugin_init after
 * components_init), then run in the small hand-built world of
 * tests/fixture_pnr.h.
 *
 * The case (as test_pnr.c's server selection): 4 PEs of 100 MB, P2C with
 * one manager (PE 0) and global knowledge. t = 0: threads of 40, 75 and
 * 50 MB on PEs 1, 2 and 3 leave 60, 25 and 50 MB free (lendable above the
 * 0.1 MB threshold: 59.9, 24.9, 49.9). t = 1: a thread of 100 + need MB
 * on PE 0 asks for `need` MB; PE 0 itself has nothing free, so the
 * candidates are PEs 1, 2, 3.
 */
#include "core/registry_host.h"
#include "app/components.h"
#include "tests/fixture_pnr.h"

/* The plugin, compiled into this test. */
#include "examples/plugins/p2c.c"

static const double RAM100[NPE_MAX] = {100, 100, 100, 100, 100, 100, 100, 100};

/* Register P2C once (as the loader would) and return its key's handle. */
static int p2c_key(void)
{
    static int h = -1;
    components_init();
    pnrsim_registry_open(); /* as the loader does around an init */
    if (h < 0) {
        ck_assert_int_eq(pnrsim_plugin_init(pnrsim_registry_get(), PNRSIM_API_VERSION), 0);
        const pnrsim_component *c = pnrsim_find(PNRSIM_KIND_STRATEGY, "P2C");
        ck_assert_ptr_nonnull(c);
        ck_assert_str_eq(c->name, "P2C");
        for (int i = 0; i < pnrsim_nkeys(); i++)
            if (!strcmp(pnrsim_key_at(i)->section, "plugin.p2c") &&
                !strcmp(pnrsim_key_at(i)->key, "choices"))
                h = i;
        ck_assert_int_ge(h, 0);
        const pnrsim_key *k = pnrsim_key_at(h);
        ck_assert(k->type == PNRSIM_KEY_INT && k->min == 1 && k->max == 8 && k->def == 2);
    }
    return h;
}

/* fixture_pnr.h's world_init_topo, with [plugin.p2c] choices = d set
 * before the layer is created (what the config's [plugin.p2c] section
 * does once the loader's keys are read). */
static void p2c_world(world *w, int npes, int d, const char *const *sets, uint64_t seed)
{
    int h = p2c_key();
    memset(w, 0, sizeof *w);
    ev_init(&w->sim);
    cluster_params cp = test_cluster_params(npes, 0, seed);
    cp.pe_ram_mb = RAM100;
    cp.topology = TOPO_KIND_STAR;
    cp.mem_access_rate = 1e-3;
    cluster_init(&w->sim, &w->cl, &cp);
    w->cl.hooks.on_job_ended = on_job_ended;
    w->cl.hooks.sched_ctx = w;
    char err[CFG_ERR_MAX], buf[64];
    config_defaults(&w->c);
    snprintf(buf, sizeof buf, "computer.number=%d", npes);
    ck_assert_msg(config_set(&w->c, buf, err) == 0, "%s", err);
    ck_assert_msg(config_set(&w->c, "netram.enabled=yes", err) == 0, "%s", err);
    ck_assert_msg(config_set(&w->c, "netram.strategy=P2C", err) == 0, "%s", err);
    for (int i = 0; sets && sets[i]; i++)
        ck_assert_msg(config_set(&w->c, sets[i], err) == 0, "%s", err);
    w->c.plugin_values[h] = d;
    ck_assert_int_eq(config_validate(&w->c, err), 0);
    pnr_params pp;
    run_pnr_params(&w->c, &pp);
    pp.ctx.seed = seed; /* as run_create does: the run's resolved seed */
    ck_assert_str_eq(pp.strategy->name, "P2C");
    w->pnr = pnr_create(&w->sim, &w->cl, &pp, seed);
    pnr_set_checking(w->pnr, true);
}

/* The case above with d choices: returns a bit mask of the PEs asked;
 * lent[pe] = MB each lent, *wait = the asking thread's wait for its grant.
 * Checks conservation: the client holds exactly what the servers lent,
 * which is what it asked for (need <= 59.9 + 24.9 + 49.9). */
static int p2c_case(int d, double need, uint64_t seed, double *lent, double *wait)
{
    world w;
    p2c_world(&w, 4, d, (const char *[]){"netram.global_knowledge=yes", NULL}, seed);
    start_at(&w, 0, make_job(&w, 1, 1, (int[]){1}, 10, 40));
    start_at(&w, 0, make_job(&w, 2, 1, (int[]){2}, 10, 75));
    start_at(&w, 0, make_job(&w, 3, 1, (int[]){3}, 10, 50));
    start_at(&w, 1, make_job(&w, 4, 1, (int[]){0}, 1, 100 + need));
    ev_run(&w.sim, 2);
    int mask = 0;
    double total = 0;
    for (int pe = 0; pe < 4; pe++) {
        if (received(&w, pe, PNR_MSG_ASK))
            mask |= 1 << pe;
        lent[pe] = w.cl.pes[pe].lent_mb;
        total += lent[pe];
    }
    ck_assert_near(total, need, 1e-9);
    ck_assert_near(w.cl.pes[0].remote_mb, need, 1e-9);
    const pnr_stats *st = pnr_get_stats(w.pnr);
    ck_assert_near(st->granted_mb, need, 1e-9);
    ck_assert_near(st->asked_mb, need, 1e-9);
    ck_assert_uint_eq(st->satisfied, 1);
    ck_assert_uint_eq(sent(&w, PNR_MSG_ASK), (uint64_t)__builtin_popcount((unsigned)mask));
    ck_assert_uint_eq(sent(&w, PNR_MSG_BROADCAST), 0); /* one manager: nobody to tell */
    ev_run(&w.sim, INFINITY);
    ck_assert_int_eq(w.jobs_ended, 4);
    *wait = w.rec[4].waited_alloc;
    assert_settled(w.pnr);
    world_free(&w);
    return mask;
}

START_TEST(test_many_choices_is_worst_fit)
{
    /* d >= the 3 candidates: no draw, all compared, the most free asked
     * (ties to the lowest PE): WORSTFIT, whatever the seed. 20 MB: PE 1
     * (60 free) lends it all, one ASK and GRANT between PE 0 (the manager,
     * where the client is) and PE 1: the wait is 2 T(64). 70 MB: PE 1
     * lends 59.9, then the most free of PEs 2 (25) and 3 (50), PE 3, the
     * remaining 10.1: 4 T(64). */
    double lent[4], wait;
    for (int d = 3; d <= 8; d += 5)
        for (uint64_t seed = 1; seed <= 4; seed++) {
            ck_assert_int_eq(p2c_case(d, 20, seed, lent, &wait), 1 << 1);
            ck_assert_near(lent[1], 20, 1e-9);
            ck_assert_near(wait, 2 * T_MSG(CTRL), 1e-12);
            ck_assert_int_eq(p2c_case(d, 70, seed, lent, &wait), (1 << 1) | (1 << 3));
            ck_assert_near(lent[1], 59.9, 1e-9);
            ck_assert_near(lent[3], 10.1, 1e-9);
            ck_assert_near(wait, 4 * T_MSG(CTRL), 1e-12);
        }
}
END_TEST

START_TEST(test_two_choices)
{
    /* d = 2 of PEs 1, 2, 3 (60, 25, 50 free): the pair drawn is {1,2},
     * {1,3} or {2,3}, each with probability 1/3, and the freer of the two
     * is asked: PE 1, PE 1, PE 3. So PE 2 (the least free) is never asked
     * first, PE 1 with probability 2/3. 20 MB: one server lends it all.
     * 70 MB: after PE 1 (59.9) the two left are both drawn (no draw: d =
     * 2 = the candidates), the freer, PE 3, lends 10.1; after PE 3 (49.9),
     * PE 1 lends 20.1. Either way 2 ASKs, 4 T(64) of wait, PE 2 untouched.
     * Over 90 seeds: PE 1 first 60 times on average (sd 4.5; accept 5 sd);
     * both orders occur. */
    double lent[4], wait;
    int first1 = 0, first3 = 0, n = 90;
    for (uint64_t seed = 1; seed <= (uint64_t)n; seed++) {
        int m = p2c_case(2, 20, seed, lent, &wait);
        ck_assert_msg(m == 1 << 1 || m == 1 << 3, "asked %x", m);
        ck_assert_near(lent[m == 1 << 1 ? 1 : 3], 20, 1e-9);
        ck_assert_near(wait, 2 * T_MSG(CTRL), 1e-12);
        first1 += m == 1 << 1;
        ck_assert_int_eq(p2c_case(2, 70, seed, lent, &wait), (1 << 1) | (1 << 3));
        ck_assert_double_eq(lent[2], 0);
        ck_assert_near(wait, 4 * T_MSG(CTRL), 1e-12);
        if (fabs(lent[1] - 59.9) < 1e-9) {
            ck_assert_near(lent[3], 10.1, 1e-9);
        } else {
            ck_assert_near(lent[3], 49.9, 1e-9);
            ck_assert_near(lent[1], 20.1, 1e-9);
            first3++;
        }
    }
    ck_assert_msg(fabs(first1 - n * 2.0 / 3) < 5 * sqrt(n * (2.0 / 3) * (1.0 / 3)), "%d", first1);
    ck_assert_int_gt(first3, 0);
    ck_assert_int_lt(first3, n);
}
END_TEST

START_TEST(test_one_choice_is_random)
{
    /* d = 1: one candidate drawn uniformly, asked whatever its free RAM:
     * over 60 seeds each of PEs 1, 2, 3 is asked (each missed with
     * probability (2/3)^60 < 1e-10); 20 MB fits in every one of them. */
    double lent[4], wait;
    int seen = 0;
    for (uint64_t seed = 1; seed <= 60; seed++) {
        int m = p2c_case(1, 20, seed, lent, &wait);
        ck_assert(m == 1 << 1 || m == 1 << 2 || m == 1 << 3);
        seen |= m;
    }
    ck_assert_int_eq(seen, (1 << 1) | (1 << 2) | (1 << 3));
}
END_TEST

START_TEST(test_uses_managers)
{
    /* P2C reads netram.managers (PNR_STRATEGY_USES_MANAGERS): more
     * managers than PEs is refused, as for BACKBONE. */
    p2c_key();
    config c;
    char err[CFG_ERR_MAX];
    config_defaults(&c);
    ck_assert_int_eq(config_set(&c, "netram.strategy=p2c", err), 0);
    c.computer.number = 4;
    c.netram.managers = 5;
    ck_assert_int_eq(config_validate(&c, err), -1);
    ck_assert_msg(strstr(err, "the P2C strategy needs 1 <= managers <= number"), "%s", err);
    c.netram.managers = 4;
    ck_assert_int_eq(config_validate(&c, err), 0);
    /* Registered after the built-ins, which keep their indices. */
    ck_assert_int_eq(pnrsim_find(PNRSIM_KIND_STRATEGY, "BACKBONE")->index, 3);
    ck_assert_int_ge(pnrsim_find(PNRSIM_KIND_STRATEGY, "P2C")->index, 4);
    ck_assert_int_ne(pnrsim_plugin_init(pnrsim_registry_get(), PNRSIM_API_VERSION + 1), 0);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("plugin_p2c");
    TCase *tc = tcase_create("p2c");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_many_choices_is_worst_fit);
    tcase_add_test(tc, test_two_choices);
    tcase_add_test(tc, test_one_choice_is_random);
    tcase_add_test(tc, test_uses_managers);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN()
