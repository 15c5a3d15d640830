/* Clipped n-gram matches of tokenized segments: bleu_impl.fast.count's counting step in C.
 *
 * clipped_counts(toks, ks, order) takes the chunk layout of bleu_impl.fast.tokens.ChunkTokens
 * (toks = [hyp_0, refs_0..., hyp_1, refs_1...], every token a str; ks = references per
 * segment) and returns a bytearray of segments x order native int64: for segment s and
 * order n, m_n = sum over the hypothesis's n-grams g of min(count_hyp(g), max_r count_r(g)),
 * the clipped matches of Papineni et al. (2002), eq. 1 numerator.
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
    PyObject *tok;
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

/* Clipped matches of one segment (sentences sents[0..k], the hypothesis first) into out. */
static int segment_counts(Work *w, PyObject **sents, Py_ssize_t k, int order, int64_t *out) {
    Py_ssize_t total = 0, lens[k + 1], starts[k + 1];
    for (Py_ssize_t r = 0; r <= k; r++) {
        Py_ssize_t len = PyObject_Length(sents[r]);
        if (len < 0) return -1;
        starts[r] = total;
        lens[r] = len;
        total += len;
    }
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
    int32_t distinct = 0;
    for (Py_ssize_t r = 0; r <= k; r++)
        if (sentence_ids(w, sents[r], starts[r], &distinct)) return -1;
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
    return 0;
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
        Py_ssize_t k = PyLong_AsSsize_t(PyList_GET_ITEM(ks, s));
        if (k < 0 || at + k + 1 > nsent) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "ks do not match toks");
            failed = 1;
            break;
        }
        failed = segment_counts(&w, &PySequence_Fast_ITEMS(toks)[at], k, order, out + s * order);
        at += k + 1;
    }
    free(w.toks);
    free(w.grams);
    free(w.ids);
    free(w.hashes);
    free(w.used);
    if (failed) { Py_DECREF(result); return NULL; }
    return result;
}

static PyMethodDef methods[] = {
    {"clipped_counts", clipped_counts, METH_VARARGS,
     "clipped_counts(toks, ks, order) -> bytearray of segments x order int64 clipped matches"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_kernel", NULL, -1, methods};

PyMODINIT_FUNC PyInit__kernel(void) { return PyModule_Create(&module); }
