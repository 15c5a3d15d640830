/* The benchmark's C floor: corpus BLEU statistics (sacrebleu semantics, max order 4, closest
 * reference length with ties to the shorter) of DIR/hyp.txt against DIR/ref0.txt ..
 * DIR/ref{REFS-1}.txt, tokenized by whitespace ("none") or 13a.
 *
 *   floor DIR REFS none|13a WARMUP REPS
 *
 * The files are read into memory first; each run then tokenizes, interns tokens (a hash table
 * comparing bytes, so ids are exact), counts each segment's n-grams in a small table and clips
 * them by the most frequent reference. Prints one "time WALL CPU" line (seconds) per timed run and one
 * "stats HYP_LEN REF_LEN M1 M2 M3 M4 T1 T2 T3 T4" line. 13a works on UTF-8 bytes: its
 * patterns name ASCII characters only, so bytes and code points give the same tokens;
 * whitespace is ASCII whitespace (Python's str.split also splits on Unicode spaces). */
#define _GNU_SOURCE /* memmem */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define ORDER 4
typedef struct { char *data; size_t len; } Text;
typedef struct { const char *s; uint32_t len; uint32_t id; uint64_t h; } Token;
typedef struct { uint32_t ids[ORDER]; int n, hyp, best, cur, ref, used; } Gram;

static Text slurp(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) { perror(path); exit(2); }
    fseek(f, 0, SEEK_END);
    Text t = {malloc((size_t)ftell(f) + 1), (size_t)ftell(f)};
    fseek(f, 0, SEEK_SET);
    if (fread(t.data, 1, t.len, f) != t.len) { perror(path); exit(2); }
    fclose(f);
    return t;
}

static int space(unsigned char c) { return c == ' ' || (c >= 9 && c <= 13) || (c >= 28 && c <= 31); }
static int digit(unsigned char c) { return c >= '0' && c <= '9'; }
static int punct(unsigned char c) { /* 13a's first class: {-~ [-` space-& (-+ :-@ / */
    return (c >= '{' && c <= '~') || (c >= '[' && c <= '`') || (c >= ' ' && c <= '&') ||
           (c >= '(' && c <= '+') || (c >= ':' && c <= '@') || c == '/';
}

/* Replace every `from` in s[0..n) by `to` (sequential, like str.replace); returns new length. */
static size_t replace(char *s, size_t n, const char *from, const char *to) {
    size_t fl = strlen(from), tl = strlen(to), o = 0;
    if (!memmem(s, n, from, fl)) return n;
    for (size_t i = 0; i < n;) {
        if (i + fl <= n && memcmp(s + i, from, fl) == 0) { memcpy(s + o, to, tl); o += tl; i += fl; }
        else s[o++] = s[i++];
    }
    return o;
}

/* sacrebleu's 13a of line s[0..n) (already right-stripped), written to out; returns length. */
static size_t tok13a(const char *line, size_t n, char *out, char *tmp) {
    memcpy(tmp + 1, line, n);
    n = replace(tmp + 1, n, "<skipped>", "");
    if (memchr(tmp + 1, '&', n)) {
        n = replace(tmp + 1, n, "&quot;", "\"");
        n = replace(tmp + 1, n, "&amp;", "&");
        n = replace(tmp + 1, n, "&lt;", "<");
        n = replace(tmp + 1, n, "&gt;", ">");
    }
    tmp[0] = ' '; tmp[n + 1] = ' '; n += 2;
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {  /* ([punct]) -> " \1 " */
        if (punct((unsigned char)tmp[i])) { out[o++] = ' '; out[o++] = tmp[i]; out[o++] = ' '; }
        else out[o++] = tmp[i];
    }
    /* the three two-character rules, each a left-to-right pass of non-overlapping matches */
    for (int rule = 0; rule < 3; rule++) {
        char *src = rule == 1 ? tmp : out, *dst = rule == 1 ? out : tmp;
        size_t m = 0;
        for (size_t i = 0; i < o;) {
            unsigned char a = (unsigned char)src[i], b = i + 1 < o ? (unsigned char)src[i + 1] : 0;
            int dot_a = a == '.' || a == ',', dot_b = b == '.' || b == ',';
            int hit = i + 1 < o && ((rule == 0 && !digit(a) && dot_b) ||
                                    (rule == 1 && dot_a && !digit(b)) ||
                                    (rule == 2 && digit(a) && b == '-'));
            if (!hit) { dst[m++] = src[i++]; continue; }
            if (rule == 1) dst[m++] = ' ';
            dst[m++] = (char)a; dst[m++] = ' '; dst[m++] = (char)b;
            if (rule != 1) dst[m++] = ' ';
            i += 2;
        }
        o = m;
    }
    memcpy(out, tmp, o);  /* rule 2 (the last) wrote to tmp */
    return o;
}

/* Token interning: open addressing over a power-of-two table, hash then bytes compared. */
static Token *vocab; static size_t vcap, vcount;
static char *pool, *chunks[1 << 16]; static size_t pool_left, nchunks;
static uint32_t intern(const char *s, uint32_t len) {
    uint64_t h = 1469598103934665603ULL;
    for (uint32_t i = 0; i < len; i++) h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
    if (2 * (vcount + 1) > vcap) {  /* grow: rehash every token */
        Token *old = vocab; size_t oldcap = vcap;
        vcap = vcap ? 2 * vcap : 1 << 16;
        vocab = calloc(vcap, sizeof(Token));
        for (size_t i = 0; i < oldcap; i++) {
            if (!old[i].s) continue;
            size_t j = old[i].h & (vcap - 1);
            while (vocab[j].s) j = (j + 1) & (vcap - 1);
            vocab[j] = old[i];
        }
        free(old);
    }
    size_t j = h & (vcap - 1);
    for (; vocab[j].s; j = (j + 1) & (vcap - 1))
        if (vocab[j].h == h && vocab[j].len == len && memcmp(vocab[j].s, s, len) == 0) return vocab[j].id;
    if (pool_left < len) {  /* a new type's bytes are copied: the line buffers are reused */
        pool_left = len > (1u << 20) ? len : (1u << 20);
        pool = malloc(pool_left);
        chunks[nchunks++] = pool;
    }
    memcpy(pool, s, len);
    vocab[j] = (Token){pool, len, (uint32_t)vcount, h};
    pool += len; pool_left -= len;
    return (uint32_t)vcount++;
}

/* Ids of the tokens of one line (13a-tokenized first if asked); returns their count. */
static char *buf[2]; static size_t bufcap;
static size_t line_ids(const char *line, size_t n, int t13a, uint32_t *ids) {
    while (n && space((unsigned char)line[n - 1])) n--;
    if (t13a && n) {
        if (24 * n + 64 > bufcap) {  /* each pass at most doubles (the first triples) a line */
            bufcap = 24 * n + 64;
            for (int b = 0; b < 2; b++) { free(buf[b]); buf[b] = malloc(bufcap); }
        }
        n = tok13a(line, n, buf[0], buf[1]);
        line = buf[0];
    }
    size_t k = 0;
    for (size_t i = 0; i < n;) {
        while (i < n && space((unsigned char)line[i])) i++;
        size_t start = i;
        while (i < n && !space((unsigned char)line[i])) i++;
        if (i > start) ids[k++] = intern(line + start, (uint32_t)(i - start));
    }
    return k;
}

static Gram *table; static size_t tcap; static size_t *used; static size_t nused;
static Gram *find(const uint32_t *ids, int n, int insert) {
    uint64_t h = (uint64_t)n;
    for (int i = 0; i < n; i++) h = (h ^ ids[i]) * 0x9E3779B97F4A7C15ULL;
    for (size_t j = (h >> 32) & (tcap - 1);; j = (j + 1) & (tcap - 1)) {
        Gram *g = &table[j];
        if (!g->used) {
            if (!insert) return NULL;
            *g = (Gram){{0}, n, 0, 0, 0, -1, 1};
            memcpy(g->ids, ids, (size_t)n * sizeof *ids);
            used[nused++] = j;
            return g;
        }
        if (g->n == n && memcmp(g->ids, ids, (size_t)n * sizeof *ids) == 0) return g;
    }
}

/* Statistics of one segment added to st: hyp_len, ref_len, matches[4], totals[4]. */
static void segment(const uint32_t *hyp, size_t hl, uint32_t **refs, const size_t *rl, int nrefs, long long *st) {
    size_t need = 1;
    while (need < 4 * ORDER * (hl + 1)) need <<= 1;
    if (need > tcap) { free(table); free(used); tcap = need; table = calloc(tcap, sizeof(Gram)); used = malloc(tcap * sizeof(size_t)); }
    for (int n = 1; n <= ORDER; n++)
        for (size_t i = 0; i + n <= hl; i++) { find(hyp + i, n, 1)->hyp++; st[2 + ORDER + n - 1]++; }
    size_t closest = rl[0];
    for (int r = 0; r < nrefs; r++) {
        size_t d = rl[r] > hl ? rl[r] - hl : hl - rl[r], dc = closest > hl ? closest - hl : hl - closest;
        if (d < dc || (d == dc && rl[r] < closest)) closest = rl[r];
        for (int n = 1; n <= ORDER; n++)
            for (size_t i = 0; i + n <= rl[r]; i++) {
                Gram *g = find(refs[r] + i, n, 0);
                if (!g) continue;
                if (g->ref != r) { g->ref = r; g->cur = 0; }
                if (++g->cur > g->best) g->best = g->cur;
            }
    }
    st[0] += (long long)hl; st[1] += (long long)closest;
    for (size_t u = 0; u < nused; u++) {
        Gram *g = &table[used[u]];
        st[2 + g->n - 1] += g->hyp < g->best ? g->hyp : g->best;
        g->used = 0;
    }
    nused = 0;
}

static void run(Text *files, int nrefs, int t13a, long long *st) {
    memset(st, 0, sizeof(long long) * (2 + 2 * ORDER));
    uint32_t *ids = NULL, *line[64];
    size_t len[64], pos[64] = {0}, idcap = 0;
    vcount = 0; memset(vocab, 0, vcap * sizeof(Token));
    for (;;) {
        char *start[64];
        size_t bytes[64], sum = 1;
        for (int f = 0; f <= nrefs; f++) {
            if (pos[f] >= files[f].len) {
                free(ids);
                while (nchunks) free(chunks[--nchunks]);
                pool_left = 0;
                return;
            }
            start[f] = files[f].data + pos[f];
            char *end = memchr(start[f], '\n', files[f].len - pos[f]);
            bytes[f] = end ? (size_t)(end - start[f]) : files[f].len - pos[f];
            pos[f] += bytes[f] + 1;
            sum += bytes[f];
        }
        if (sum > idcap) { free(ids); idcap = 2 * sum; ids = malloc(idcap * sizeof *ids); }
        uint32_t *next = ids;  /* a line has at most one token per byte */
        for (int f = 0; f <= nrefs; f++) {
            line[f] = next;
            len[f] = line_ids(start[f], bytes[f], t13a, next);
            next += len[f];
        }
        segment(line[0], len[0], line + 1, len + 1, nrefs, st);
    }
}

static double seconds(struct timespec a, struct timespec b) {
    return (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
}

int main(int argc, char **argv) {
    if (argc != 6) { fprintf(stderr, "usage: floor DIR REFS none|13a WARMUP REPS\n"); return 2; }
    int nrefs = atoi(argv[2]), t13a = strcmp(argv[3], "13a") == 0, warmup = atoi(argv[4]), reps = atoi(argv[5]);
    if (nrefs < 1 || nrefs > 63) { fprintf(stderr, "REFS must be 1..63\n"); return 2; }
    Text files[64];
    char path[4096];
    for (int f = 0; f <= nrefs; f++) {
        if (f == 0) snprintf(path, sizeof path, "%s/hyp.txt", argv[1]);
        else snprintf(path, sizeof path, "%s/ref%d.txt", argv[1], f - 1);
        files[f] = slurp(path);
    }
    long long st[2 + 2 * ORDER];
    for (int i = 0; i < warmup + reps; i++) {
        struct timespec w0, w1, c0, c1;
        clock_gettime(CLOCK_MONOTONIC, &w0); clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
        run(files, nrefs, t13a, st);
        clock_gettime(CLOCK_MONOTONIC, &w1); clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
        if (i >= warmup) printf("time %.6f %.6f\n", seconds(w0, w1), seconds(c0, c1));
    }
    printf("stats");
    for (int i = 0; i < 2 + 2 * ORDER; i++) printf(" %lld", st[i]);
    printf("\n");
    return 0;
}
