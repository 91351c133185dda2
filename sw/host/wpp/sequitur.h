/* SEQUITUR (Nevill-Manning and Witten): a context-free grammar that generates exactly one sequence,
 * built online in linear time by keeping two properties: no pair of adjacent symbols (digram)
 * appears twice in the grammar, and every rule is used at least twice. Larus' whole-program paths
 * compress a program's path trace this way; here it compresses the stream of path traversals of the
 * hierarchy of cycles (docs/wpp.md, "The grammar"). Host only. */
#ifndef HWPROF_WPP_SEQUITUR_H
#define HWPROF_WPP_SEQUITUR_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct sq sq_t;

/* A new grammar; NULL when out of memory. Terminals are values below 2^31. */
sq_t *sq_new(void);
/* Appends terminal t to the sequence. Returns 0, or -1 (out of memory, or t >= 2^31: the grammar is
 * then left as it was before the call and refuses more). */
int sq_append(sq_t *g, uint32_t t);
void sq_free(sq_t *g);

typedef struct {
  uint64_t terminals; /* the sequence's length */
  uint64_t rules;     /* rules, the start rule included */
  uint64_t symbols;   /* symbols on the right-hand sides of all rules: the grammar's size */
} sq_stats_t;

void sq_stats(const sq_t *g, sq_stats_t *st);

/* Calls out(ctx, t) for each terminal of the sequence the grammar generates, in order (expanding
 * every rule: an independent way to check the grammar). Returns the number of terminals. */
uint64_t sq_expand(const sq_t *g, void (*out)(void *ctx, uint32_t t), void *ctx);

/* Checks SEQUITUR's two properties over the whole grammar: no digram twice (overlapping digrams of
 * a run such as "aaa" aside), every rule but the start rule used at least twice and its reference
 * count right. Returns 0, or -1 with the first violation described in why. */
int sq_check(const sq_t *g, char *why, size_t whylen);

/* Writes the grammar in text: one line a rule, "R<n> -> " then its symbols (terminals as numbers,
 * rules as R<n>), the start rule R0 first. */
void sq_write(const sq_t *g, FILE *to);

#endif /* HWPROF_WPP_SEQUITUR_H */
