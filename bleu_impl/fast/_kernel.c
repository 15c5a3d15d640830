/* Clipped n-gram matches of segments: bleu_impl.fast.count's counting step in C.
 *
 * clipped_counts(toks, ks, order) takes the chunk layout of bleu_impl.fast.tokens.ChunkTokens
 * (toks = [hyp_0, refs_0..., hyp_1, refs_1...], every token a str; ks = references per
 * segment) and returns a bytearray of segments x order native int64: for segment s and
 * order n, m_n = sum over the hypothesis's n-grams g of min(count_hyp(g), max_r count_r(g)),
 * the clipped matches of Papineni et al. (2002), eq. 1 numerator.
 *
 * text_counts(texts, ks, order, split) takes the same layout with every sentence one str not
 * yet split on whitespace (split 0: str.split(), 1: Perl's \s on decoded text, i.e. without
 * U+001C-U+001F, 2: ASCII whitespace only) and returns (matches, lengths): the same matches
 * and every sentence's token count as native int64, without making a str per token; with
 * tokenize_13a true, each str is a raw line that 13a tokenizes first, as
 * bleu_impl.tokenizers.tok13a.tokenize_13a (one pass over code points per rule).
 *
 * Per segment, tokens get segment-local ids through an open-addressing table keyed by the
 * str's own hash and compared by content (as a dict would); per order, the hypothesis's
 * n-grams go into a second table (hash of the ids, compared by the ids), and every
 * reference n-gram found there updates its running count and the maximum over references.
 * Tables are reused across segments, cleared by a generation stamp. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    PyObject *tok;     /* clipped_counts: the token */
    const void *data;  /* text_counts: the token's first code point in its sentence */
    Py_ssize_t len;    /* text_counts: its code points */
    int kind;          /* text_counts: the sentence's storage width */
    Py_hash_t hash;
    int64_t gen;
    int32_t id;
} TokSlot;

typedef struct {
    uint64_t hash;
    int64_t gen;
    Py_ssize_t start; /* position of the n-gram's first occurrence in the hypothesis ids */
    int64_t hyp, best, cur, ref;
} GramSlot;

typedef struct {
    TokSlot *toks;
    size_t tok_cap;
    GramSlot *grams;
    size_t gram_cap;
    int32_t *ids;
    uint64_t *hashes;
    size_t ids_cap, hashes_cap;
    Py_ssize_t *used;
    int64_t tok_gen, gram_gen;
} Work;

typedef struct { Py_UCS4 *s; Py_ssize_t n, cap; } Buf;

/* text_counts' 13a: two work buffers and the segment's tokenized texts (the arena). */
typedef struct { Buf a, b, arena; } Texts;

static int grow(void **buf, size_t *cap, size_t need, size_t size, int zero) {
    if (need <= *cap) return 0;
    size_t n = *cap ? *cap : 64;
    while (n < need) n *= 2;
    void *p = zero ? calloc(n, size) : malloc(n * size);
    if (!p) { PyErr_NoMemory(); return -1; }
    free(*buf);
    *buf = p;
    *cap = n;
    return 0;
}

static int same_str(PyObject *a, PyObject *b) {
    if (a == b) return 1;
    Py_ssize_t n = PyUnicode_GET_LENGTH(a);
    if (n != PyUnicode_GET_LENGTH(b) || PyUnicode_KIND(a) != PyUnicode_KIND(b)) return 0;
    return memcmp(PyUnicode_DATA(a), PyUnicode_DATA(b), (size_t)n * PyUnicode_KIND(a)) == 0;
}

/* Local ids (1..D) of one sentence's tokens appended at ids[at..]; -1 on error. */
static int sentence_ids(Work *w, PyObject *sent, Py_ssize_t at, int32_t *distinct) {
    PyObject *fast = PySequence_Fast(sent, "a tokenized sentence must be a sequence");
    if (!fast) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    PyObject **items = PySequence_Fast_ITEMS(fast);
    size_t mask = w->tok_cap - 1;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *t = items[i];
        if (!PyUnicode_CheckExact(t)) {
            Py_DECREF(fast);
            PyErr_SetString(PyExc_TypeError, "tokens must be str");
            return -1;
        }
        Py_hash_t h = PyObject_Hash(t);
        if (h == -1) { Py_DECREF(fast); return -1; }
        size_t j = (size_t)h & mask;
        for (;;) {
            TokSlot *s = &w->toks[j];
            if (s->gen != w->tok_gen) {
                s->gen = w->tok_gen;
                s->tok = t;
                s->hash = h;
                s->id = ++*distinct;
                w->ids[at + i] = s->id;
                break;
            }
            if (s->hash == h && same_str(s->tok, t)) {
                w->ids[at + i] = s->id;
                break;
            }
            j = (j + 1) & mask;
        }
    }
    Py_DECREF(fast);
    return 0;
}

static inline uint64_t mix(uint64_t h, int32_t id) {
    h ^= (uint64_t)(uint32_t)id + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    h *= 0xff51afd7ed558ccdULL;
    return h ^ (h >> 33);
}

/* Find the hypothesis n-gram at ids[pos..pos+n) in the table, or NULL. */
static GramSlot *lookup(Work *w, Py_ssize_t pos, int n, int insert) {
    size_t mask = w->gram_cap - 1;
    uint64_t h = w->hashes[pos];
    size_t j = (size_t)h & mask;
    for (;;) {
        GramSlot *s = &w->grams[j];
        if (s->gen != w->gram_gen) {
            if (!insert) return NULL;
            s->gen = w->gram_gen;
            s->hash = h;
            s->start = pos;
            s->hyp = s->best = s->cur = 0;
            s->ref = -1;
            return s;
        }
        if (s->hash == h &&
            memcmp(&w->ids[s->start], &w->ids[pos], (size_t)n * sizeof(int32_t)) == 0)
            return s;
        j = (j + 1) & mask;
    }
}

/* Room for a segment of `total` tokens: tables of at least 2 * total + 2 slots. */
static int reserve(Work *w, Py_ssize_t total) {
    if (total > INT32_MAX) {
        PyErr_SetString(PyExc_OverflowError, "a segment of more than 2**31 - 1 tokens");
        return -1;
    }
    size_t need = 1;
    while (need < 2 * (size_t)total + 2) need *= 2;
    if (grow((void **)&w->toks, &w->tok_cap, need, sizeof(TokSlot), 1)) return -1;
    if (need > w->gram_cap) {
        if (grow((void **)&w->grams, &w->gram_cap, need, sizeof(GramSlot), 1)) return -1;
        free(w->used);
        w->used = malloc(w->gram_cap * sizeof(Py_ssize_t));
        if (!w->used) { PyErr_NoMemory(); return -1; }
    }
    if (grow((void **)&w->ids, &w->ids_cap, (size_t)total, sizeof(int32_t), 0)) return -1;
    if (grow((void **)&w->hashes, &w->hashes_cap, (size_t)total, sizeof(uint64_t), 0)) return -1;
    w->tok_gen++;
    return 0;
}

/* Clipped matches per order into out, from the ids of sentences 0..k (the hypothesis
 * first) at w->ids[starts[r]..starts[r] + lens[r]). */
static void count_ids(Work *w, const Py_ssize_t *starts, const Py_ssize_t *lens, Py_ssize_t k,
                      Py_ssize_t total, int order, int64_t *out) {
    for (Py_ssize_t i = 0; i < total; i++) w->hashes[i] = 0;
    for (int n = 1; n <= order; n++) {
        int64_t matched = 0;
        w->gram_gen++;
        Py_ssize_t used = 0;
        for (Py_ssize_t r = 0; r <= k; r++)
            for (Py_ssize_t i = 0; i + n <= lens[r]; i++) {
                Py_ssize_t p = starts[r] + i;
                w->hashes[p] = mix(w->hashes[p], w->ids[p + n - 1]);
            }
        for (Py_ssize_t i = 0; i + n <= lens[0]; i++) {
            GramSlot *s = lookup(w, i, n, 1);
            if (!s->hyp) w->used[used++] = s - w->grams;
            s->hyp++;
        }
        for (Py_ssize_t r = 1; used && r <= k; r++)
            for (Py_ssize_t i = 0; i + n <= lens[r]; i++) {
                GramSlot *s = lookup(w, starts[r] + i, n, 0);
                if (!s) continue;
                if (s->ref != r) { s->ref = r; s->cur = 0; }
                if (++s->cur > s->best) s->best = s->cur;
            }
        for (Py_ssize_t u = 0; u < used; u++) {
            GramSlot *s = &w->grams[w->used[u]];
            matched += s->hyp < s->best ? s->hyp : s->best;
        }
        out[n - 1] = matched;
    }
}

/* Clipped matches of one segment (token lists sents[0..k], the hypothesis first) into out. */
static int segment_counts(Work *w, PyObject **sents, Py_ssize_t k, int order, int64_t *out) {
    Py_ssize_t total = 0, lens[k + 1], starts[k + 1];
    for (Py_ssize_t r = 0; r <= k; r++) {
        Py_ssize_t len = PyObject_Length(sents[r]);
        if (len < 0) return -1;
        starts[r] = total;
        lens[r] = len;
        total += len;
    }
    if (reserve(w, total)) return -1;
    int32_t distinct = 0;
    for (Py_ssize_t r = 0; r <= k; r++)
        if (sentence_ids(w, sents[r], starts[r], &distinct)) return -1;
    count_ids(w, starts, lens, k, total, order, out);
    return 0;
}

/* ---------------------------------------------------------------------------- 13a */

static int fit(Buf *b, Py_ssize_t need) {
    if (need <= b->cap) return 0;
    Py_ssize_t cap = b->cap ? b->cap : 256;
    while (cap < need) cap *= 2;
    Py_UCS4 *p = realloc(b->s, (size_t)cap * sizeof(Py_UCS4));
    if (!p) { PyErr_NoMemory(); return -1; }
    b->s = p;
    b->cap = cap;
    return 0;
}

/* str.replace(from, to) of a in place (to is never longer than from). */
static void replace_all(Buf *a, const char *from, const char *to) {
    Py_ssize_t fl = (Py_ssize_t)strlen(from), tl = (Py_ssize_t)strlen(to), o = 0, i = 0;
    while (i < a->n) {
        Py_ssize_t j = 0;
        while (j < fl && i + j < a->n && a->s[i + j] == (Py_UCS4)(unsigned char)from[j]) j++;
        if (j == fl) {
            for (Py_ssize_t t = 0; t < tl; t++) a->s[o++] = (Py_UCS4)(unsigned char)to[t];
            i += fl;
        } else {
            a->s[o++] = a->s[i++];
        }
    }
    a->n = o;
}


static inline int ascii_digit(Py_UCS4 c) { return c >= '0' && c <= '9'; }
static inline int period_comma(Py_UCS4 c) { return c == '.' || c == ','; }
static inline int punct13a(Py_UCS4 c) { /* [\{-\~\[-\` -\&\(-\+\:-\@\/] */
    return (c >= '{' && c <= '~') || (c >= '[' && c <= '`') || (c >= ' ' && c <= '&') ||
           (c >= '(' && c <= '+') || (c >= ':' && c <= '@') || c == '/';
}

/* One rule "(x)(y) -> out" of two single characters as re.sub applies it (leftmost,
 * non-overlapping): rule 0 ([^0-9])([.,]) -> \1 \2 _, rule 1 ([.,])([^0-9]) -> _\1 \2,
 * rule 2 ([0-9])(-) -> \1 \2 _ (_ = a space). a -> b. A match needs the rule's marked
 * character (y of rules 0 and 2, x of rule 1), so the text up to the next one is copied. */
static int pair_rule(const Buf *a, Buf *b, int rule) {
    if (fit(b, 2 * a->n + 2)) return -1;
    const Py_UCS4 *s = a->s;
    Py_ssize_t n = a->n, o = 0, i = 0;
    while (i < n) {
        Py_ssize_t j = rule == 1 ? i : i + 1; /* the next marked character */
        while (j < n && !(rule == 2 ? s[j] == '-' : period_comma(s[j]))) j++;
        Py_ssize_t p = rule == 1 ? j : j - 1; /* where a match would start */
        if (j >= n || (rule == 1 && p + 1 >= n)) p = n;
        memcpy(b->s + o, s + i, (size_t)(p - i) * sizeof(Py_UCS4));
        o += p - i;
        if (p == n) break;
        Py_UCS4 x = s[p], y = s[p + 1];
        int hit = rule == 0 ? !ascii_digit(x) : rule == 1 ? !ascii_digit(y) : ascii_digit(x);
        if (!hit) { b->s[o++] = x; i = p + 1; continue; }
        if (rule == 1) b->s[o++] = ' ';
        b->s[o++] = x;
        b->s[o++] = ' ';
        b->s[o++] = y;
        if (rule != 1) b->s[o++] = ' ';
        i = p + 2;
    }
    b->n = o;
    return 0;
}

/* tokenize_13a of one line (the same code points), through the buffers a and b, into a. */
static int line13a(PyObject *line, Buf *a, Buf *b) {
    Py_ssize_t n = PyUnicode_GET_LENGTH(line);
    if (fit(a, n) || fit(b, 3 * n + 6)) return -1;
    const void *data = PyUnicode_DATA(line);
    switch (PyUnicode_KIND(line)) { /* one loop per width */
    case PyUnicode_1BYTE_KIND:
        for (Py_ssize_t i = 0; i < n; i++) a->s[i] = ((const Py_UCS1 *)data)[i];
        break;
    case PyUnicode_2BYTE_KIND:
        for (Py_ssize_t i = 0; i < n; i++) a->s[i] = ((const Py_UCS2 *)data)[i];
        break;
    default:
        memcpy(a->s, data, (size_t)n * sizeof(Py_UCS4));
    }
    a->n = n;
    int lt = 0, nl = 0, amp = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_UCS4 c = a->s[i];
        lt |= c == '<';
        nl |= c == '\n';
        amp |= c == '&';
    }
    if (lt) replace_all(a, "<skipped>", "");
    if (nl) { replace_all(a, "-\n", ""); replace_all(a, "\n", " "); }
    if (amp) {
        replace_all(a, "&quot;", "\"");
        replace_all(a, "&amp;", "&");
        replace_all(a, "&lt;", "<");
        replace_all(a, "&gt;", ">");
    }
    Py_ssize_t o = 0; /* pad with a space at both ends, space out the punctuation class */
    int pc = 0, dash = 0;
    for (Py_ssize_t i = -1; i <= a->n; i++) {
        Py_UCS4 c = i < 0 || i == a->n ? ' ' : a->s[i];
        pc |= period_comma(c);
        dash |= c == '-';
        if (punct13a(c)) { b->s[o++] = ' '; b->s[o++] = c; b->s[o++] = ' '; }
        else b->s[o++] = c;
    }
    b->n = o;
    /* The rules that can match (a rule without its character leaves the text as it is). */
    if (pc && (pair_rule(b, a, 0) || pair_rule(a, b, 1))) return -1;
    if (dash) {
        if (pair_rule(b, a, 2)) return -1;
    } else {
        Buf swap = *a; /* the result belongs in a */
        *a = *b;
        *b = swap;
    }
    return 0;
}

/* ---------------------------------------------------------------------------- split */

/* Whether code point c separates tokens under split mode `mode` (see the top comment). */
static inline int separates(Py_UCS4 c, int mode) {
    if (mode == 2) return c == ' ' || (c >= 9 && c <= 13);
    if (mode == 1 && c >= 0x1c && c <= 0x1f) return 0;
    return Py_UNICODE_ISSPACE(c);
}

/* Whether the tokens at a (width ka) and b (width kb), n code points each, are equal. */
static int same_text(const void *a, int ka, const void *b, int kb, Py_ssize_t n) {
    if (ka == kb) return memcmp(a, b, (size_t)n * (size_t)ka) == 0;
    for (Py_ssize_t i = 0; i < n; i++)
        if (PyUnicode_READ(ka, a, i) != PyUnicode_READ(kb, b, i)) return 0;
    return 1;
}

/* Local id of the token at data (width kind, n code points, hash h): found or added. */
static int32_t text_id(Work *w, const void *data, int kind, Py_ssize_t n, uint64_t h,
                       int32_t *distinct) {
    size_t mask = w->tok_cap - 1, j = (size_t)h & mask;
    for (;;) {
        TokSlot *s = &w->toks[j];
        if (s->gen != w->tok_gen) {
            s->gen = w->tok_gen;
            s->data = data;
            s->kind = kind;
            s->len = n;
            s->hash = (Py_hash_t)h;
            return s->id = ++*distinct;
        }
        if (s->hash == (Py_hash_t)h && s->len == n && same_text(s->data, s->kind, data, kind, n))
            return s->id;
        j = (j + 1) & mask;
    }
}

/* Tokens of one sentence (size code points of width kind at data): their local ids written
 * at ids, their count returned. The hash runs over code points, so a token hashes alike in
 * sentences of any width. */
static Py_ssize_t split_ids(Work *w, const void *data, int kind, Py_ssize_t size, int mode,
                            int32_t *ids, int32_t *distinct) {
    Py_ssize_t count = 0, i = 0;
    while (i < size) {
        while (i < size && separates(PyUnicode_READ(kind, data, i), mode)) i++;
        if (i == size) break;
        Py_ssize_t start = i;
        uint64_t h = 0xcbf29ce484222325ULL;
        for (; i < size; i++) {
            Py_UCS4 c = PyUnicode_READ(kind, data, i);
            if (separates(c, mode)) break;
            h = (h ^ c) * 0x100000001b3ULL;
        }
        const void *at = (const char *)data + start * kind;
        ids[count++] = text_id(w, at, kind, i - start, h ^ (h >> 29), distinct);
    }
    return count;
}

/* Clipped matches of one segment (texts[0..k], the hypothesis first) into out, and every
 * sentence's token count into lens; with t, the texts are tokenized by 13a first (into
 * t->arena). The tables are sized for the most tokens the texts could hold (half their
 * code points, rounded up), so each text is read once. */
static int text_segment(Work *w, Texts *t, PyObject **texts, Py_ssize_t k, int mode, int order,
                        int64_t *out, int64_t *lens) {
    Py_ssize_t bound = 0, total = 0, sizes[k + 1], starts[k + 1], at[k + 1];
    if (t) t->arena.n = 0;
    for (Py_ssize_t r = 0; r <= k; r++) {
        if (!PyUnicode_Check(texts[r])) {
            PyErr_SetString(PyExc_TypeError, "texts must be str");
            return -1;
        }
        sizes[r] = PyUnicode_GET_LENGTH(texts[r]);
        if (t) {
            if (line13a(texts[r], &t->a, &t->b) || fit(&t->arena, t->arena.n + t->a.n)) return -1;
            memcpy(t->arena.s + t->arena.n, t->a.s, (size_t)t->a.n * sizeof(Py_UCS4));
            at[r] = t->arena.n;
            sizes[r] = t->a.n;
            t->arena.n += t->a.n;
        }
        bound += (sizes[r] + 1) / 2;
    }
    if (reserve(w, bound)) return -1;
    int32_t distinct = 0;
    for (Py_ssize_t r = 0; r <= k; r++) {
        const void *data = t ? (const void *)(t->arena.s + at[r]) : PyUnicode_DATA(texts[r]);
        int kind = t ? PyUnicode_4BYTE_KIND : PyUnicode_KIND(texts[r]);
        Py_ssize_t n = split_ids(w, data, kind, sizes[r], mode, w->ids + total, &distinct);
        starts[r] = total;
        sizes[r] = lens[r] = n;
        total += n;
    }
    count_ids(w, starts, sizes, k, total, order, out);
    return 0;
}

static void release(Work *w) {
    free(w->toks);
    free(w->grams);
    free(w->ids);
    free(w->hashes);
    free(w->used);
}

/* Segment s's reference count from ks, checked against the sentences left; -1 on error. */
static Py_ssize_t refs_of(PyObject *ks, Py_ssize_t s, Py_ssize_t at, Py_ssize_t nsent) {
    Py_ssize_t k = PyLong_AsSsize_t(PyList_GET_ITEM(ks, s));
    if (k < 0 || at + k + 1 > nsent) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "ks do not match the sentences");
        return -1;
    }
    return k;
}

static PyObject *text_counts(PyObject *self, PyObject *args) {
    PyObject *texts, *ks;
    int order, mode, tokenize = 0;
    (void)self;
    if (!PyArg_ParseTuple(args, "O!O!ii|p", &PyList_Type, &texts, &PyList_Type, &ks, &order, &mode,
                          &tokenize))
        return NULL;
    if (order < 1 || mode < 0 || mode > 2)
        return PyErr_Format(PyExc_ValueError, "order must be >= 1 and split 0, 1 or 2");
    Py_ssize_t segs = PyList_GET_SIZE(ks), at = 0, nsent = PyList_GET_SIZE(texts);
    PyObject *counts = PyByteArray_FromStringAndSize(NULL, segs * order * (Py_ssize_t)sizeof(int64_t));
    PyObject *lens = PyByteArray_FromStringAndSize(NULL, nsent * (Py_ssize_t)sizeof(int64_t));
    if (!counts || !lens) { Py_XDECREF(counts); Py_XDECREF(lens); return NULL; }
    int64_t *out = (int64_t *)PyByteArray_AS_STRING(counts);
    int64_t *len_out = (int64_t *)PyByteArray_AS_STRING(lens);
    Work w = {0};
    Texts t = {0};
    int failed = 0;
    for (Py_ssize_t s = 0; s < segs && !failed; s++) {
        Py_ssize_t k = refs_of(ks, s, at, nsent);
        failed = k < 0 || text_segment(&w, tokenize ? &t : NULL, &PySequence_Fast_ITEMS(texts)[at],
                                       k, mode, order, out + s * order, len_out + at);
        at += k + 1;
    }
    release(&w);
    free(t.a.s);
    free(t.b.s);
    free(t.arena.s);
    if (failed) { Py_DECREF(counts); Py_DECREF(lens); return NULL; }
    return Py_BuildValue("(NN)", counts, lens);
}

static PyObject *clipped_counts(PyObject *self, PyObject *args) {
    PyObject *toks, *ks;
    int order;
    (void)self;
    if (!PyArg_ParseTuple(args, "O!O!i", &PyList_Type, &toks, &PyList_Type, &ks, &order))
        return NULL;
    if (order < 1) return PyErr_Format(PyExc_ValueError, "order must be >= 1");
    Py_ssize_t segs = PyList_GET_SIZE(ks), at = 0, nsent = PyList_GET_SIZE(toks);
    PyObject *result = PyByteArray_FromStringAndSize(NULL, segs * order * (Py_ssize_t)sizeof(int64_t));
    if (!result) return NULL;
    int64_t *out = (int64_t *)PyByteArray_AS_STRING(result);
    Work w = {0};
    int failed = 0;
    for (Py_ssize_t s = 0; s < segs && !failed; s++) {
        Py_ssize_t k = refs_of(ks, s, at, nsent);
        failed = k < 0 || segment_counts(&w, &PySequence_Fast_ITEMS(toks)[at], k, order, out + s * order);
        at += k + 1;
    }
    release(&w);
    if (failed) { Py_DECREF(result); return NULL; }
    return result;
}

static PyMethodDef methods[] = {
    {"clipped_counts", clipped_counts, METH_VARARGS,
     "clipped_counts(toks, ks, order) -> bytearray of segments x order int64 clipped matches"},
    {"text_counts", text_counts, METH_VARARGS,
     "text_counts(texts, ks, order, split[, tokenize_13a]) -> (clipped matches, token counts) "
     "as int64 bytearrays"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_kernel", NULL, -1, methods};

PyMODINIT_FUNC PyInit__kernel(void) { return PyModule_Create(&module); }
