/* SEQUITUR; see sequitur.h. Symbols are doubly linked; each rule's body is a ring closed by a guard
 * symbol. An open-addressing table maps each digram of the grammar to its first symbol. */
#include "sequitur.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

typedef struct rule rule_t;
typedef struct sym sym_t;

struct sym {
  sym_t *next, *prev;
  rule_t *r;   /* a nonterminal: the rule it stands for; the guard: the rule it closes; else NULL */
  uint32_t t;  /* a terminal's value */
  bool guard;
};

struct rule {
  sym_t *guard;
  uint64_t refs; /* nonterminals that stand for it */
  uint32_t id;   /* its index in g->rule */
};

#define DELETED ((sym_t *)1)
#define NT_BIT 0x80000000u

struct sq {
  rule_t **rule;      /* by id; NULL once expanded away */
  uint32_t nrule, rule_cap;
  sym_t **slot;       /* the digram table */
  uint64_t cap, used; /* slots, and slots not empty (deleted ones included) */
  uint64_t terminals;
  bool failed;
};

static uint32_t value(const sym_t *s) { return s->r ? NT_BIT | s->r->id : s->t; }
static uint64_t key_of(const sym_t *a) { return (uint64_t)value(a) << 32 | value(a->next); }
static uint64_t hash64(uint64_t k) { /* SplitMix64's finalizer: every bit of the key reaches the low ones */
  k ^= k >> 30;
  k *= 0xbf58476d1ce4e5b9ull;
  k ^= k >> 27;
  k *= 0x94d049bb133111ebull;
  k ^= k >> 31;
  return k;
}

/* The slot of digram (a, a->next): the one holding a symbol that starts an equal digram, or else
 * where to record it: the first deleted slot on the way, or the empty one that ends the search.
 * Reusing deleted slots matters: SEQUITUR deletes and records the same digrams over and over, and
 * each record into a fresh empty slot would lengthen the run of slots every search walks. */
static sym_t **find(sq_t *g, const sym_t *a) {
  const uint64_t k = key_of(a);
  sym_t **reuse = NULL;
  for (uint64_t i = hash64(k) & (g->cap - 1);; i = (i + 1) & (g->cap - 1)) {
    sym_t *s = g->slot[i];
    if (s == NULL) return reuse ? reuse : &g->slot[i];
    if (s == DELETED) {
      if (reuse == NULL) reuse = &g->slot[i];
    } else if (key_of(s) == k) {
      return &g->slot[i];
    }
  }
}

static bool grow_table(sq_t *g) {
  sym_t **old = g->slot;
  const uint64_t old_cap = g->cap;
  uint64_t live = 0;
  for (uint64_t i = 0; i < old_cap; i++) live += old[i] != NULL && old[i] != DELETED;
  uint64_t cap = old_cap;
  while (cap < 4 * (live + 1)) cap *= 2;
  sym_t **n = calloc(cap, sizeof *n);
  if (n == NULL) return false;
  g->slot = n;
  g->cap = cap;
  g->used = 0;
  for (uint64_t i = 0; i < old_cap; i++)
    if (old[i] != NULL && old[i] != DELETED) {
      *find(g, old[i]) = old[i];
      g->used++;
    }
  free(old);
  return true;
}

/* Records digram (a, a->next) as starting at a, at its slot at (found after the last growth). */
static void put(sq_t *g, sym_t **at, sym_t *a) {
  if (*at == NULL) g->used++;
  *at = a;
}

/* The same, finding the slot (the table grown first when half full). */
static void record(sq_t *g, sym_t *a) {
  if (2 * (g->used + 1) > g->cap && !grow_table(g)) {
    g->failed = true;
    return;
  }
  put(g, find(g, a), a);
}

static void delete_digram(sq_t *g, sym_t *a) {
  if (a->guard || a->next->guard) return;
  sym_t **x = find(g, a);
  if (*x == a) *x = DELETED;
}

/* left's successor becomes right. Removing the digram that started at left can uncover an equal
 * one in a run of three equal symbols, which is recorded again. */
static void join(sq_t *g, sym_t *left, sym_t *right) {
  if (left->next) {
    delete_digram(g, left);
    if (right->prev && right->next && !right->guard && !right->prev->guard && !right->next->guard &&
        value(right) == value(right->prev) && value(right) == value(right->next))
      record(g, right);
    if (left->prev && left->next && !left->guard && !left->prev->guard && !left->next->guard &&
        value(left) == value(left->next) && value(left) == value(left->prev))
      record(g, left->prev);
  }
  left->next = right;
  right->prev = left;
}

static void insert_after(sq_t *g, sym_t *x, sym_t *y) {
  join(g, y, x->next);
  join(g, x, y);
}

static sym_t *new_sym(uint32_t t, rule_t *r) {
  sym_t *s = calloc(1, sizeof *s);
  if (s == NULL) return NULL;
  s->t = t;
  s->r = r;
  if (r) r->refs++;
  return s;
}

/* Unlinks and frees s (not a guard), its digrams forgotten, its rule's use dropped. */
static void delete_sym(sq_t *g, sym_t *s) {
  join(g, s->prev, s->next);
  delete_digram(g, s);
  if (s->r) s->r->refs--;
  free(s);
}

static rule_t *new_rule(sq_t *g) {
  if (g->nrule == g->rule_cap) {
    const uint32_t cap = g->rule_cap ? 2 * g->rule_cap : 64;
    rule_t **n = realloc(g->rule, cap * sizeof *n);
    if (n == NULL) return NULL;
    g->rule = n;
    g->rule_cap = cap;
  }
  rule_t *r = calloc(1, sizeof *r);
  sym_t *guard = calloc(1, sizeof *guard);
  if (r == NULL || guard == NULL || g->nrule >= NT_BIT) {
    free(r);
    free(guard);
    return NULL;
  }
  guard->guard = true;
  guard->r = r;
  guard->next = guard->prev = guard;
  r->guard = guard;
  r->id = g->nrule;
  g->rule[g->nrule++] = r;
  return r;
}

static bool check(sq_t *g, sym_t *a);

/* Nonterminal n's rule is used only there: its body takes n's place and the rule goes. */
static void expand(sq_t *g, sym_t *n) {
  sym_t *left = n->prev, *right = n->next;
  rule_t *r = n->r;
  sym_t *first = r->guard->next, *last = r->guard->prev;
  if (!right->guard) {
    sym_t **x = find(g, n);
    if (*x == n) *x = DELETED;
  }
  join(g, left, first); /* forgets (left, n) */
  join(g, last, right);
  if (!last->guard && !right->guard) record(g, last);
  g->rule[r->id] = NULL;
  free(r->guard);
  free(r);
  free(n);
}

/* The digram starting at s is replaced by a nonterminal of r. */
static bool substitute(sq_t *g, sym_t *s, rule_t *r) {
  sym_t *q = s->prev;
  delete_sym(g, q->next);
  delete_sym(g, q->next);
  sym_t *n = new_sym(0, r);
  if (n == NULL) return false;
  insert_after(g, q, n);
  if (!check(g, q)) check(g, q->next);
  return true;
}

/* ss's digram repeats m's: both become one rule's nonterminal (a rule that is that digram already,
 * or a new one). */
static void match(sq_t *g, sym_t *ss, sym_t *m) {
  rule_t *r;
  if (m->prev->guard && m->next->next->guard) {
    r = m->prev->r;
    if (!substitute(g, ss, r)) g->failed = true;
  } else {
    r = new_rule(g);
    sym_t *a = r ? new_sym(ss->t, ss->r) : NULL, *b = a ? new_sym(ss->next->t, ss->next->r) : NULL;
    if (b == NULL) {
      free(a);
      g->failed = true;
      return;
    }
    insert_after(g, r->guard->prev, a);
    insert_after(g, r->guard->prev, b);
    if (!substitute(g, m, r) || !substitute(g, ss, r)) {
      g->failed = true;
      return;
    }
    record(g, r->guard->next);
  }
  sym_t *first = r->guard->next;
  if (first->r && first->r->refs == 1) expand(g, first);
}

/* The digram starting at a: recorded if new; a repeat is made a rule. True if the table already
 * had the digram (the caller need not check the next one). */
static bool check(sq_t *g, sym_t *a) {
  if (a->guard || a->next->guard || g->failed) return false;
  if (2 * (g->used + 1) > g->cap && !grow_table(g)) {
    g->failed = true;
    return false;
  }
  sym_t **x = find(g, a);
  if (*x == NULL || *x == DELETED) {
    put(g, x, a);
    return false;
  }
  if ((*x)->next != a) match(g, a, *x);
  return true;
}

sq_t *sq_new(void) {
  sq_t *g = calloc(1, sizeof *g);
  if (g == NULL) return NULL;
  g->cap = 1024;
  g->slot = calloc(g->cap, sizeof *g->slot);
  if (g->slot == NULL || new_rule(g) == NULL) {
    sq_free(g);
    return NULL;
  }
  return g;
}

int sq_append(sq_t *g, uint32_t t) {
  if (g->failed || t >= NT_BIT) {
    g->failed = true;
    return -1;
  }
  sym_t *s = new_sym(t, NULL);
  if (s == NULL) {
    g->failed = true;
    return -1;
  }
  rule_t *start = g->rule[0];
  insert_after(g, start->guard->prev, s);
  g->terminals++;
  check(g, s->prev);
  return g->failed ? -1 : 0;
}

void sq_free(sq_t *g) {
  if (g == NULL) return;
  for (uint32_t i = 0; i < g->nrule; i++) {
    rule_t *r = g->rule[i];
    if (r == NULL) continue;
    for (sym_t *s = r->guard->next; s != r->guard;) {
      sym_t *n = s->next;
      free(s);
      s = n;
    }
    free(r->guard);
    free(r);
  }
  free(g->rule);
  free(g->slot);
  free(g);
}

void sq_stats(const sq_t *g, sq_stats_t *st) {
  memset(st, 0, sizeof *st);
  st->terminals = g->terminals;
  for (uint32_t i = 0; i < g->nrule; i++) {
    const rule_t *r = g->rule[i];
    if (r == NULL) continue;
    st->rules++;
    for (const sym_t *s = r->guard->next; s != r->guard; s = s->next) st->symbols++;
  }
}

uint64_t sq_expand(const sq_t *g, void (*out)(void *ctx, uint32_t t), void *ctx) {
  /* an explicit stack of where each open rule's body goes on */
  size_t cap = 64, n = 0;
  const sym_t **stack = malloc(cap * sizeof *stack);
  uint64_t count = 0;
  if (stack == NULL) return 0;
  const sym_t *s = g->rule[0]->guard->next;
  for (;;) {
    if (s->guard) {
      if (n == 0) break;
      s = stack[--n];
      continue;
    }
    if (s->r) {
      if (n == cap) {
        cap *= 2;
        const sym_t **m = realloc(stack, cap * sizeof *m);
        if (m == NULL) break;
        stack = m;
      }
      stack[n++] = s->next;
      s = s->r->guard->next;
      continue;
    }
    out(ctx, s->t);
    count++;
    s = s->next;
  }
  free(stack);
  return count;
}

int sq_check(const sq_t *g, char *why, size_t whylen) {
  uint64_t ndig = 0;
  for (uint32_t i = 0; i < g->nrule; i++)
    if (g->rule[i])
      for (const sym_t *s = g->rule[i]->guard->next; s != g->rule[i]->guard; s = s->next) ndig++;
  uint64_t cap = 64;
  while (cap < 2 * ndig + 2) cap *= 2;
  const sym_t **seen = calloc(cap, sizeof *seen);
  uint64_t *refs = calloc(g->nrule ? g->nrule : 1, sizeof *refs);
  int rc = 0;
  if (seen == NULL || refs == NULL) {
    snprintf(why, whylen, "out of memory");
    rc = -1;
  }
  for (uint32_t i = 0; i < g->nrule && !rc; i++) {
    const rule_t *r = g->rule[i];
    if (r == NULL) continue;
    for (const sym_t *s = r->guard->next; s != r->guard && !rc; s = s->next) {
      if (s->r) {
        if (g->rule[s->r->id] != s->r) {
          snprintf(why, whylen, "R%" PRIu32 " refers to a rule that is gone", i);
          rc = -1;
          break;
        }
        refs[s->r->id]++;
      }
      if (s->next->guard) continue;
      const uint64_t k = key_of(s);
      uint64_t j = hash64(k) & (cap - 1);
      while (seen[j] && key_of(seen[j]) != k) j = (j + 1) & (cap - 1);
      if (seen[j] == NULL) {
        seen[j] = s;
      } else if (!(seen[j]->next == s || s->next == seen[j] || seen[j] == s->prev)) {
        snprintf(why, whylen, "digram (%" PRIu32 ", %" PRIu32 ") appears twice", value(s), value(s->next));
        rc = -1;
      }
    }
  }
  for (uint32_t i = 1; i < g->nrule && !rc; i++) {
    if (g->rule[i] == NULL) continue;
    if (refs[i] != g->rule[i]->refs) {
      snprintf(why, whylen, "R%" PRIu32 " is used %" PRIu64 " times, its count says %" PRIu64, i, refs[i],
               g->rule[i]->refs);
      rc = -1;
    } else if (refs[i] < 2) {
      snprintf(why, whylen, "R%" PRIu32 " is used %" PRIu64 " times (rule utility: at least 2)", i, refs[i]);
      rc = -1;
    }
  }
  free(seen);
  free(refs);
  return rc;
}

void sq_write(const sq_t *g, FILE *to) {
  for (uint32_t i = 0; i < g->nrule; i++) {
    const rule_t *r = g->rule[i];
    if (r == NULL) continue;
    fprintf(to, "R%" PRIu32 " ->", i);
    for (const sym_t *s = r->guard->next; s != r->guard; s = s->next) {
      if (s->r) fprintf(to, " R%" PRIu32, s->r->id);
      else fprintf(to, " %" PRIu32, s->t);
    }
    fputc('\n', to);
  }
}
