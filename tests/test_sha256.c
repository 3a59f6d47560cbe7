/* tests/test_sha256.c: SHA-256 (app/sha256.h) against the test vectors of
 * FIPS 180-4's examples (NIST CSRC "SHA256.pdf", also RFC 6234 §8.5):
 * "abc" (one block), the 448-bit message "abcdbcde...nopq" (two blocks:
 * the padding's length no longer fits the first), a million 'a' (fed in
 * pieces of awkward sizes, so that the block buffering is exercised), and
 * the empty message. The digests are the standard's published values.
 */
#include "app/sha256.h"
#include "tests/testutil.h"

#include <string.h>

static void digest_of(const void *p, size_t n, char hex[65])
{
    sha256_ctx s;
    unsigned char d[32];
    sha256_init(&s);
    sha256_update(&s, p, n);
    sha256_final(&s, d);
    sha256_hex(d, hex);
}

START_TEST(test_abc)
{
    char hex[65];
    digest_of("abc", 3, hex);
    ck_assert_str_eq(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}
END_TEST

START_TEST(test_448_bits)
{
    const char *m = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    ck_assert_uint_eq(strlen(m) * 8, 448);
    char hex[65];
    digest_of(m, strlen(m), hex);
    ck_assert_str_eq(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}
END_TEST

START_TEST(test_million_a)
{
    static char a[1000];
    memset(a, 'a', sizeof a);
    sha256_ctx s;
    sha256_init(&s);
    /* 10^6 bytes in pieces of 1, 63, 64, 65, 999... (sum 10^6). */
    size_t done = 0, k = 0;
    static const size_t sizes[] = {1, 63, 64, 65, 999, 1000, 7, 128};
    while (done < 1000000) {
        size_t n = sizes[k++ % 8];
        if (n > 1000000 - done)
            n = 1000000 - done;
        sha256_update(&s, a, n);
        done += n;
    }
    unsigned char d[32];
    char hex[65];
    sha256_final(&s, d);
    sha256_hex(d, hex);
    ck_assert_str_eq(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}
END_TEST

START_TEST(test_empty)
{
    char hex[65];
    digest_of("", 0, hex);
    ck_assert_str_eq(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("sha256");
    TCase *tc = tcase_create("fips180");
    tcase_add_test(tc, test_abc);
    tcase_add_test(tc, test_448_bits);
    tcase_add_test(tc, test_million_a);
    tcase_add_test(tc, test_empty);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN()
