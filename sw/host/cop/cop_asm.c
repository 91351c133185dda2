/* The co-processor's assembler and disassembler (cop_asm.h, docs/cop.md). */
#include "cop_asm.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cop_image.h"

#define MAX_LABELS 1024
#define NAME_LEN 48
#define LINE_LEN 1024

typedef struct {
  char name[NAME_LEN];
  uint32_t addr;
} label_t;

typedef struct {
  const char *name;  /* the input, for messages */
  unsigned line;
  const char *lstart;  /* the current line, for columns */
  char *err;
  size_t errlen;
  label_t *labels;
  unsigned nlabels;
  int auto_labels;  /* the disassembler's check: L<n> names address n */
  uint32_t t[HWPROF_COP_NUM_TREGS];
  int tset[HWPROF_COP_NUM_TREGS];
  char tname[HWPROF_COP_NUM_TREGS][NAME_LEN];  /* .target's label, resolved after the first pass */
  unsigned tline[HWPROF_COP_NUM_TREGS];
  uint32_t src_used;  /* sources read (bit per code), and where first */
  unsigned src_line[HWPROF_COP_SRC_CODES];
} ctx_t;

/* one microinstruction being assembled */
typedef struct {
  uint64_t w;
  int alu, cam, data, idx, br;  /* slot taken */
  int a_set, b_set;
  unsigned a, b;
  const char *a_by, *b_by;  /* the operation that chose A, B */
  unsigned alu_op, cam_op, data_op, idx_op, cond;
  const char *cond_at;
} word_t;

static int fail(ctx_t *c, const char *at, const char *fmt, ...) {
  char msg[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  unsigned col = at && c->lstart ? (unsigned)(at - c->lstart) + 1u : 1u;
  snprintf(c->err, c->errlen, "%s:%u:%u: error: %s", c->name, c->line, col, msg);
  return -1;
}

static char *trim(char *s) {
  while (*s == ' ' || *s == '\t') s++;
  char *e = s + strlen(s);
  while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r' || e[-1] == '\n')) *--e = 0;
  return s;
}

static int is_ident(const char *s) {
  if (!(isalpha((unsigned char)*s) || *s == '_')) return 0;
  for (s++; *s; s++)
    if (!(isalnum((unsigned char)*s) || *s == '_')) return 0;
  return 1;
}

static int lookup(const char *const *table, unsigned n, const char *s) {
  for (unsigned i = 0; i < n; i++)
    if (table[i] && *table[i] && !strcmp(table[i], s)) return (int)i;
  return -1;
}

/* a register "<letter><n>" with n < count */
static int reg_num(const char *s, char letter, unsigned count) {
  if (s[0] != letter || !isdigit((unsigned char)s[1]) || s[2]) return -1;
  unsigned n = (unsigned)(s[1] - '0');
  return n < count ? (int)n : -1;
}

static int parse_num(const char *s, int64_t lo, int64_t hi, int64_t *out) {
  if (!*s) return -1;
  char *end;
  errno = 0;
  long long v = strtoll(s, &end, 0);
  if (errno || *end || v < lo || v > hi) return -1;
  *out = v;
  return 0;
}

static const char *const kField[HWPROF_SFIELD_VALUE + 1] = {
    [HWPROF_SFIELD_PC] = "pc", [HWPROF_SFIELD_NPC] = "npc", [HWPROF_SFIELD_INSN] = "insn",
    [HWPROF_SFIELD_ADDR] = "addr", [HWPROF_SFIELD_VALUE] = "value"};
static const char *const kKind[HWPROF_COP_KINDS] = {
    [HWPROF_KIND_OTHER] = "other", [HWPROF_KIND_BRANCH] = "branch", [HWPROF_KIND_JUMP] = "jump", [HWPROF_KIND_IJUMP] = "ijump",
    [HWPROF_KIND_LOAD] = "load",   [HWPROF_KIND_STORE] = "store",   [HWPROF_KIND_PROF] = "prof",  [7] = "kind7"};
static const char *const kSize[3] = {"byte", "half", "word"};
static const char *const kPred[4] = {".snt", "", ".t", ".st"};

/* the sample field a source reads (-1: none) */
static int src_field(unsigned code) {
  switch (code) {
    case HWPROF_COP_SRC_S_PC: return HWPROF_SFIELD_PC;
    case HWPROF_COP_SRC_S_NPC: return HWPROF_SFIELD_NPC;
    case HWPROF_COP_SRC_S_INSN: case HWPROF_COP_SRC_S_RD: case HWPROF_COP_SRC_S_RS1: case HWPROF_COP_SRC_S_RS2:
    case HWPROF_COP_SRC_S_F3: case HWPROF_COP_SRC_S_IMM: return HWPROF_SFIELD_INSN;
    case HWPROF_COP_SRC_S_ADDR: return HWPROF_SFIELD_ADDR;
    case HWPROF_COP_SRC_S_VAL: return HWPROF_SFIELD_VALUE;
    default: return -1;
  }
}

static int operand(ctx_t *c, word_t *w, int which_b, const char *tok, const char *op) {
  int code = lookup(hwprof_cop_src_asm, HWPROF_COP_SRC_CODES, tok);
  if (code < 0) return fail(c, tok, "'%s' is not an operand (v0..v3, c0..c3, i0..i7, mem, zero, s.pc, s.value, ...)", tok);
  int *set = which_b ? &w->b_set : &w->a_set;
  unsigned *val = which_b ? &w->b : &w->a;
  const char **by = which_b ? &w->b_by : &w->a_by;
  if (*set && *val != (unsigned)code)
    return fail(c, tok, "operand %c of this instruction is already %s (for %s); %s needs %s: use one value or split the instruction",
                which_b ? 'B' : 'A', hwprof_cop_src_asm[*val], *by, op, tok);
  *set = 1;
  *val = (unsigned)code;
  *by = op;
  if (!(c->src_used >> code & 1u)) c->src_line[code] = c->line;
  c->src_used |= 1u << code;
  return 0;
}

static const label_t *find_label(ctx_t *c, const char *s, label_t *tmp) {
  for (unsigned i = 0; i < c->nlabels; i++)
    if (!strcmp(c->labels[i].name, s)) return &c->labels[i];
  if (c->auto_labels && s[0] == 'L' && isdigit((unsigned char)s[1])) {
    int64_t v;
    if (parse_num(s + 1, 0, HWPROF_COP_IMAGE_MAX_UC - 1, &v) == 0) {
      tmp->addr = (uint32_t)v;
      return tmp;
    }
  }
  return NULL;
}

static int target(ctx_t *c, const char *tok, uint32_t addr, unsigned *code) {
  int t = lookup(hwprof_cop_target_asm, HWPROF_COP_TARGET_CODES, tok);
  if (t >= 0) {
    *code = (unsigned)t;
    return 0;
  }
  int64_t dist;
  label_t tmp;
  const label_t *l = NULL;
  if (tok[0] == '.' && (tok[1] == 0 || tok[1] == '+' || tok[1] == '-')) {
    if (tok[1] == 0) dist = 0;
    else if (parse_num(tok + 1, -(int64_t)HWPROF_COP_IMAGE_MAX_UC, HWPROF_COP_IMAGE_MAX_UC, &dist))
      return fail(c, tok, "'%s' is not a relative target (.+N or .-N)", tok);
  } else {
    l = find_label(c, tok, &tmp);
    if (!l) return fail(c, tok, "'%s' is not a label, t0..t3, done or intr", tok);
    dist = (int64_t)l->addr - (int64_t)addr;
  }
  for (unsigned k = 0; k < HWPROF_COP_TARGET_CODES; k++)
    if (hwprof_cop_target_has_offset[k] && hwprof_cop_target_offset[k] == dist) {
      *code = k;
      return 0;
    }
  if (l)
    for (unsigned n = 0; n < HWPROF_COP_NUM_TREGS; n++)
      if (c->tset[n] && c->t[n] == l->addr) {
        *code = HWPROF_COP_TARGET_T0 + n;
        return 0;
      }
  return fail(c, tok, "'%s' is %+" PRId64 " instructions away, out of reach of the short offsets (+2..+6, +8, -1, 0); "
              "declare it in a .target register", tok, dist);
}

/* "bN[iX]" */
static int element(ctx_t *c, char *tok, unsigned *base, unsigned *idx) {
  char *lb = strchr(tok, '['), *rb = strchr(tok, ']');
  if (!lb || !rb || rb < lb || rb[1]) return fail(c, tok, "'%s' is not an element (bN[iX])", tok);
  *lb = 0;
  *rb = 0;
  int b = reg_num(trim(tok), 'b', HWPROF_COP_NUM_BREGS), i = reg_num(trim(lb + 1), 'i', HWPROF_COP_NUM_IREGS);
  *lb = '[';
  *rb = ']';
  if (b < 0 || i < 0) return fail(c, tok, "'%s' is not an element (b0..b7 indexed by i0..i7)", tok);
  *base = (unsigned)b;
  *idx = (unsigned)i;
  return 0;
}

/* split "a, b, c" in place; returns the count or -1 when more than max */
static int split_args(char *s, char **arg, int max) {
  int n = 0;
  s = trim(s);
  if (!*s) return 0;
  for (;;) {
    char *comma = strchr(s, ',');
    if (n == max) return -1;
    if (comma) *comma = 0;
    arg[n++] = trim(s);
    if (!comma) return n;
    s = comma + 1;
  }
}

static int one_op(ctx_t *c, word_t *w, char *op, uint32_t addr) {
  op = trim(op);
  if (!*op) return fail(c, op, "empty operation (two '|' in a row?)");
  char *sp = op;
  while (*sp && !isspace((unsigned char)*sp)) sp++;
  char *args_s = sp;
  if (*sp) *args_s++ = 0;
  char *arg[4];
  int na = split_args(args_s, arg, 4);
  if (na < 0) return fail(c, args_s, "too many operands for '%s'", op);
  for (int i = 0; i < na; i++)
    if (!*arg[i]) return fail(c, args_s, "empty operand in '%s'", op);
  int k;
#define NEED(n, form) \
  if (na != (n)) return fail(c, op, "'%s' takes %d operand%s: %s", op, (n), (n) == 1 ? "" : "s", form)
#define SLOT(flag, what) \
  if (w->flag) return fail(c, op, "a second %s operation in one instruction", what); \
  w->flag = 1
  if ((k = lookup(hwprof_cop_alu_op_asm, HWPROF_COP_ALU_OP_CODES, op)) >= 0) {
    SLOT(alu, "ALU");
    w->alu_op = (unsigned)k;
    if (k == HWPROF_COP_ALU_OP_NOP) {
      if (na < 1 || na > 2) return fail(c, op, "'cmp' takes 1 or 2 operands: A[, B]");
      if (operand(c, w, 0, arg[0], op) || (na == 2 && operand(c, w, 1, arg[1], op))) return -1;
      return 0;
    }
    int dst;
    if (k == HWPROF_COP_ALU_OP_MOV || k == HWPROF_COP_ALU_OP_RAND) {
      NEED(2, k == HWPROF_COP_ALU_OP_MOV ? "vD, A" : "vD, B");
    } else {
      NEED(3, "vD, A, B");
    }
    if ((dst = reg_num(arg[0], 'v', HWPROF_COP_NUM_VREGS)) < 0) return fail(c, arg[0], "'%s' is not a value register (v0..v3)", arg[0]);
    w->w = HWPROF_COP_UI_SET(w->w, ALU_DST, (unsigned)dst);
    if (k == HWPROF_COP_ALU_OP_MOV) return operand(c, w, 0, arg[1], op);
    if (k == HWPROF_COP_ALU_OP_RAND) return operand(c, w, 1, arg[1], op);
    return operand(c, w, 0, arg[1], op) || operand(c, w, 1, arg[2], op) ? -1 : 0;
  }
  if ((k = lookup(hwprof_cop_cam_op_asm, HWPROF_COP_CAM_OP_CODES, op)) >= 0) {
    SLOT(cam, "CAM");
    w->cam_op = (unsigned)k;
    if (k == HWPROF_COP_CAM_OP_INVAL) {
      NEED(1, "iX");
    } else {
      NEED(2, "iX, A");
    }
    int i = reg_num(arg[0], 'i', HWPROF_COP_NUM_IREGS);
    if (i < 0) return fail(c, arg[0], "'%s' is not an index register (i0..i7)", arg[0]);
    w->w = HWPROF_COP_UI_SET(w->w, CAM_IDX, (unsigned)i);
    return k == HWPROF_COP_CAM_OP_INVAL ? 0 : operand(c, w, 0, arg[1], op);
  }
  if ((k = lookup(hwprof_cop_data_op_asm, HWPROF_COP_DATA_OP_CODES, op)) >= 0) {
    SLOT(data, "data");
    w->data_op = (unsigned)k;
    unsigned b, i;
    if (k == HWPROF_COP_DATA_OP_READ) {
      NEED(2, "vD, bN[iX]");
      int v = reg_num(arg[0], 'v', HWPROF_COP_NUM_VREGS);
      if (v < 0) return fail(c, arg[0], "'%s' is not a value register (v0..v3)", arg[0]);
      if (element(c, arg[1], &b, &i)) return -1;
      w->w = HWPROF_COP_UI_SET(w->w, DATA_REG, (unsigned)v);
    } else if (k == HWPROF_COP_DATA_OP_WRITE) {
      NEED(2, "bN[iX], B");
      if (element(c, arg[0], &b, &i) || operand(c, w, 1, arg[1], op)) return -1;
    } else {
      NEED(1, "bN[iX]");
      if (element(c, arg[0], &b, &i)) return -1;
    }
    w->w = HWPROF_COP_UI_SET(w->w, DATA_BASE, b);
    w->w = HWPROF_COP_UI_SET(w->w, DATA_IDX, i);
    return 0;
  }
  if ((k = lookup(hwprof_cop_idx_op_asm, HWPROF_COP_IDX_OP_CODES, op)) >= 0) {
    SLOT(idx, "index");
    w->idx_op = (unsigned)k;
    if (k == HWPROF_COP_IDX_OP_LOAD) {
      NEED(2, "iX, A");
    } else {
      NEED(1, "iX");
    }
    int i = reg_num(arg[0], 'i', HWPROF_COP_NUM_IREGS);
    if (i < 0) return fail(c, arg[0], "'%s' is not an index register (i0..i7)", arg[0]);
    w->w = HWPROF_COP_UI_SET(w->w, IDX_REG, (unsigned)i);
    return k == HWPROF_COP_IDX_OP_LOAD ? operand(c, w, 0, arg[1], op) : 0;
  }
  /* branches, with an optional prediction suffix */
  unsigned pred = 1;
  char *dot = strchr(op, '.');
  if (dot) {
    int p = !strcmp(dot, ".nt") ? 1 : lookup(kPred, 4, dot);
    if (p < 0) return fail(c, dot, "'%s' is not a prediction suffix (.t, .nt, .st, .snt)", dot);
    pred = (unsigned)p;
    *dot = 0;
  }
  if ((k = lookup(hwprof_cop_cond_asm, HWPROF_COP_COND_CODES, op)) >= 0) {
    if (dot) *dot = '.';
    SLOT(br, "branch");
    w->cond = (unsigned)k;
    w->cond_at = op;
    int two = k == HWPROF_COP_COND_EQ || k == HWPROF_COP_COND_NE || k == HWPROF_COP_COND_LTU || k == HWPROF_COP_COND_GEU;
    if (k == HWPROF_COP_COND_ALWAYS) {
      if (dot) return fail(c, dot, "'b' is always taken: no prediction suffix");
      pred = 0;
    }
    if (two) {
      NEED(3, "A, B, target");
      if (operand(c, w, 0, arg[0], op) || operand(c, w, 1, arg[1], op)) return -1;
    } else {
      NEED(1, "target");
    }
    unsigned t = 0;
    if (target(c, arg[na - 1], addr, &t)) return -1;
    w->w = HWPROF_COP_UI_SET(w->w, COND, (unsigned)k);
    w->w = HWPROF_COP_UI_SET(w->w, TARGET, t);
    w->w = HWPROF_COP_UI_SET(w->w, PRED, pred);
    return 0;
  }
  if (dot) *dot = '.';
  return fail(c, op, "unknown operation '%s'", op);
#undef NEED
#undef SLOT
}

/* one instruction line (without its label) -> word */
static int instruction(ctx_t *c, char *text, uint32_t addr, uint64_t *out) {
  word_t w;
  memset(&w, 0, sizeof w);
  char *t = trim(text);
  if (!strcmp(t, "nop")) {
    *out = 0;
    return 0;
  }
  if (!strncmp(t, ".word", 5) && isspace((unsigned char)t[5])) {
    char *v = trim(t + 5);
    int64_t x;
    if (parse_num(v, 0, (int64_t)((1ull << HWPROF_COP_UINSN_W) - 1u), &x)) return fail(c, v, "'%s' is not a %u-bit word", v, HWPROF_COP_UINSN_W);
    *out = (uint64_t)x;
    return 0;
  }
  for (char *op = t;;) {
    char *bar = strchr(op, '|');
    if (bar) *bar = 0;
    if (one_op(c, &w, op, addr)) return -1;
    if (!bar) break;
    op = bar + 1;
  }
  /* a condition must have the result it tests in the same instruction */
  unsigned k = w.cond;
  if ((k == HWPROF_COP_COND_Z || k == HWPROF_COP_COND_NZ) && !w.alu)
    return fail(c, w.cond_at, "%s tests the ALU result: give an ALU operation (or cmp A) in this instruction", hwprof_cop_cond_asm[k]);
  if (k == HWPROF_COP_COND_ASAT && !(w.alu && (w.alu_op == HWPROF_COP_ALU_OP_ADDS || w.alu_op == HWPROF_COP_ALU_OP_SUBS)))
    return fail(c, w.cond_at, "basat tests the saturation of adds or subs in this instruction");
  if ((k == HWPROF_COP_COND_CHIT || k == HWPROF_COP_COND_CMISS) && w.cam_op != HWPROF_COP_CAM_OP_MATCH)
    return fail(c, w.cond_at, "%s tests a cmatch in this instruction", hwprof_cop_cond_asm[k]);
  if ((k == HWPROF_COP_COND_DSAT || k == HWPROF_COP_COND_NDSAT) && w.data_op != HWPROF_COP_DATA_OP_INCS && w.data_op != HWPROF_COP_DATA_OP_DECS)
    return fail(c, w.cond_at, "%s tests an incs or decs in this instruction", hwprof_cop_cond_asm[k]);
  if ((k == HWPROF_COP_COND_ILIM || k == HWPROF_COP_COND_NILIM) &&
      w.idx_op != HWPROF_COP_IDX_OP_INC && w.idx_op != HWPROF_COP_IDX_OP_INCS && w.idx_op != HWPROF_COP_IDX_OP_DECS)
    return fail(c, w.cond_at, "%s tests an iinc, iincs or idecs in this instruction", hwprof_cop_cond_asm[k]);
  w.w = HWPROF_COP_UI_SET(w.w, ALU_OP, w.alu_op);
  w.w = HWPROF_COP_UI_SET(w.w, CAM_OP, w.cam_op);
  w.w = HWPROF_COP_UI_SET(w.w, DATA_OP, w.data_op);
  w.w = HWPROF_COP_UI_SET(w.w, IDX_OP, w.idx_op);
  w.w = HWPROF_COP_UI_SET(w.w, SRC_A, w.a);
  w.w = HWPROF_COP_UI_SET(w.w, SRC_B, w.b);
  *out = w.w;
  return 0;
}

/* a line's label (if any): returns the text after it; *label set to the name or NULL */
static char *split_label(char *s, char **label) {
  *label = NULL;
  s = trim(s);
  char *colon = strchr(s, ':');
  if (!colon) return s;
  char *p = s;
  while (p < colon && (isalnum((unsigned char)*p) || *p == '_')) p++;
  if (p != colon || p == s) return s;
  *colon = 0;
  *label = s;
  return trim(colon + 1);
}

static int directive(ctx_t *c, hwprof_cop_image_t *img, char *t, uint8_t *done_regs) {
  char *sp = t;
  while (*sp && !isspace((unsigned char)*sp)) sp++;
  char *args_s = sp;
  if (*sp) *args_s++ = 0;
  char *arg[8];
  int na = split_args(args_s, arg, 8);
  int64_t v;
  if (!strcmp(t, ".fields")) {
    if (na < 1) return fail(c, t, ".fields takes the field names: pc, npc, insn, addr, value");
    if (na < 0) return fail(c, t, "too many fields");
    for (int i = 0; i < na; i++) {
      int f = lookup(kField, HWPROF_SFIELD_VALUE + 1, arg[i]);
      if (f < 0) return fail(c, arg[i], "'%s' is not a sample field (pc, npc, insn, addr, value)", arg[i]);
      if (img->fields >> f & 1u) return fail(c, arg[i], "field '%s' given twice", arg[i]);
      img->fields |= (uint8_t)(1u << f);
    }
    return 0;
  }
  if (!strcmp(t, ".lfsr")) {
    if (na != 1 || parse_num(arg[0], 1, 0xffff, &v)) return fail(c, t, ".lfsr takes one seed, 1..0xffff");
    img->lfsr = (uint16_t)v;
    return 0;
  }
  if (!strcmp(t, ".dispatch")) {
    if (na != 2) return fail(c, t, ".dispatch takes a kind and a label");
    int k = lookup(kKind, HWPROF_COP_KINDS, arg[0]);
    if (k < 0) return fail(c, arg[0], "'%s' is not a retire kind (other, branch, jump, ijump, load, store, prof)", arg[0]);
    if (img->kinds >> k & 1u) return fail(c, arg[0], "kind '%s' dispatched twice", arg[0]);
    label_t tmp;
    const label_t *l = find_label(c, arg[1], &tmp);
    if (!l) return fail(c, arg[1], "'%s' is not a label", arg[1]);
    img->dispatch[k] = l->addr;
    img->kinds |= (uint8_t)(1u << k);
    return 0;
  }
  if (!strcmp(t, ".target")) return 0; /* resolved after the first pass */
  char letter = !strcmp(t, ".const") ? 'c' : !strcmp(t, ".base") ? 'b' : !strcmp(t, ".idxw") ? 'i' : 0;
  if (!letter) return fail(c, t, "unknown directive '%s'", t);
  unsigned count = letter == 'c' ? HWPROF_COP_NUM_CREGS : letter == 'b' ? HWPROF_COP_NUM_BREGS : HWPROF_COP_NUM_IREGS;
  if (na != (letter == 'b' ? 3 : 2))
    return fail(c, t, "%s takes %s", t, letter == 'c' ? "cN, value" : letter == 'b' ? "bN, address, byte|half|word" : "iN, width");
  int r = reg_num(arg[0], letter, count);
  if (r < 0) return fail(c, arg[0], "'%s' is not a register %c0..%c%u", arg[0], letter, letter, count - 1);
  uint8_t *seen = &done_regs[letter == 'c' ? 0 : letter == 'b' ? 8 : 16];
  if (seen[r]) return fail(c, arg[0], "%s set twice", arg[0]);
  seen[r] = 1;
  if (letter == 'c') {
    if (parse_num(arg[1], INT32_MIN, UINT32_MAX, &v)) return fail(c, arg[1], "'%s' is not a 32-bit value", arg[1]);
    img->c[r] = (uint32_t)v;
  } else if (letter == 'b') {
    if (parse_num(arg[1], 0, 0xffff, &v)) return fail(c, arg[1], "'%s' is not a byte address (0..0xffff)", arg[1]);
    int s = lookup(kSize, 3, arg[2]);
    if (s < 0) return fail(c, arg[2], "'%s' is not an element size (byte, half, word)", arg[2]);
    if (v & ((1 << s) - 1)) return fail(c, arg[1], "address %s is not aligned to its element size (%s)", arg[1], arg[2]);
    img->base[r] = (uint32_t)v;
    img->base_size[r] = (uint8_t)s;
  } else {
    if (parse_num(arg[1], 1, COP_IDXW_MAX, &v)) return fail(c, arg[1], "'%s' is not an index width (1..%u)", arg[1], COP_IDXW_MAX);
    img->idxw[r] = (uint8_t)v;
  }
  return 0;
}

int cop_asm(const char *src, const char *name, hwprof_cop_image_t *img, char *err, size_t errlen) {
  ctx_t c;
  memset(&c, 0, sizeof c);
  c.name = name;
  c.err = err;
  c.errlen = errlen;
  label_t *labels = calloc(MAX_LABELS, sizeof *labels);
  if (!labels) {
    snprintf(err, errlen, "%s: out of memory", name);
    return -1;
  }
  c.labels = labels;
  cop_image_init(img);
  char line[LINE_LEN];
  int rc = -1;
  /* pass 1: labels, addresses, .target; pass 2: everything */
  for (int pass = 1; pass <= 2; pass++) {
    uint8_t done_regs[24] = {0};
    uint32_t addr = 0;
    c.line = 0;
    c.src_used = 0;
    unsigned last_line = 0;
    for (const char *p = src; *p;) {
      const char *nl = strchr(p, '\n');
      size_t n = nl ? (size_t)(nl - p) : strlen(p);
      c.line++;
      c.lstart = line;
      if (n >= LINE_LEN) {
        c.lstart = NULL;
        fail(&c, NULL, "line longer than %d characters", LINE_LEN - 1);
        goto out;
      }
      memcpy(line, p, n);
      line[n] = 0;
      p = nl ? nl + 1 : p + n;
      char *hash = strchr(line, '#');
      if (hash) *hash = 0;
      char *label;
      char *t = split_label(line, &label);
      if (label && pass == 1) {
        if (!is_ident(label) || lookup(hwprof_cop_target_asm, HWPROF_COP_TARGET_CODES, label) >= 0) {
          fail(&c, label, "'%s' cannot be a label (it must be an identifier other than t0..t3, done, intr)", label);
          goto out;
        }
        if (strlen(label) >= NAME_LEN) {
          fail(&c, label, "label longer than %d characters", NAME_LEN - 1);
          goto out;
        }
        for (unsigned i = 0; i < c.nlabels; i++)
          if (!strcmp(c.labels[i].name, label)) {
            fail(&c, label, "label '%s' defined twice", label);
            goto out;
          }
        if (c.nlabels == MAX_LABELS) {
          fail(&c, label, "more than %d labels", MAX_LABELS);
          goto out;
        }
        strcpy(c.labels[c.nlabels].name, label);
        c.labels[c.nlabels++].addr = addr;
      }
      if (!*t) continue;
      if (t[0] == '.' && strncmp(t, ".word", 5)) {
        if (pass == 1) {
          if (!strncmp(t, ".target", 7) && (t[7] == 0 || isspace((unsigned char)t[7]))) {
            /* kept for after the pass: resolved when every label is known */
            char *arg[3];
            int na = split_args(t + 7, arg, 3);
            int r = na == 2 ? reg_num(arg[0], 't', HWPROF_COP_NUM_TREGS) : -1;
            if (na != 2) {
              fail(&c, t, ".target takes tN, label");
              goto out;
            }
            if (r < 0 || c.tline[r]) {
              fail(&c, arg[0], r < 0 ? "'%s' is not a target register (t0..t3)" : "%s set twice", arg[0]);
              goto out;
            }
            c.tline[r] = c.line;
            snprintf(c.tname[r], NAME_LEN, "%s", arg[1]);
          }
          continue;
        }
        if (directive(&c, img, t, done_regs)) goto out;
        continue;
      }
      if (addr >= HWPROF_COP_IMAGE_MAX_UC) {
        fail(&c, t, "more than %u microinstructions", HWPROF_COP_IMAGE_MAX_UC);
        goto out;
      }
      if (pass == 2 && instruction(&c, t, addr, &img->uc[addr])) goto out;
      last_line = c.line;
      addr++;
    }
    if (pass == 1) {
      /* resolve .target now that every label is known */
      for (unsigned r = 0; r < HWPROF_COP_NUM_TREGS; r++) {
        if (!c.tline[r]) continue;
        const char *want = c.tname[r];
        c.line = c.tline[r];
        c.lstart = NULL;
        const label_t *l = NULL;
        for (unsigned i = 0; i < c.nlabels; i++)
          if (!strcmp(c.labels[i].name, want)) l = &c.labels[i];
        if (!l) {
          fail(&c, NULL, ".target t%u: '%s' is not a label", r, want);
          goto out;
        }
        c.t[r] = l->addr;
        c.tset[r] = 1;
        img->t[r] = l->addr;
      }
      continue;
    }
    img->n_uc = addr;
    c.lstart = NULL;
    if (addr == 0) {
      c.line = 0;
      fail(&c, NULL, "no microinstructions");
      goto out;
    }
    for (unsigned i = 0; i < c.nlabels; i++)
      if (c.labels[i].addr >= addr) {
        c.line = 0;
        fail(&c, NULL, "label '%s' names no instruction (it follows the last one)", c.labels[i].name);
        goto out;
      }
    if (HWPROF_COP_UI_GET(img->uc[addr - 1], COND) != HWPROF_COP_COND_ALWAYS) {
      c.line = last_line;
      fail(&c, NULL, "the last instruction can fall through past the end of the program; end it with b, done or intr");
      goto out;
    }
    if (!img->kinds) {
      c.line = 0;
      fail(&c, NULL, "no .dispatch: no sample would start the program");
      goto out;
    }
    for (unsigned s = 0; s < HWPROF_COP_SRC_CODES; s++) {
      int f = src_field(s);
      if ((c.src_used >> s & 1u) && f >= 0 && !(img->fields >> f & 1u)) {
        c.line = c.src_line[s];
        fail(&c, NULL, "%s is read but .fields does not select '%s' (it would read 0)", hwprof_cop_src_asm[s], kField[f]);
        goto out;
      }
    }
  }
  rc = 0;
out:
  free(labels);
  return rc;
}

/* ---------------------------------------------------------------- disassembler */

static void cat(char *buf, size_t len, const char *fmt, ...) {
  size_t used = strlen(buf);
  if (used >= len) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf + used, len - used, fmt, ap);
  va_end(ap);
}

/* the text of a word, targets below address `labels` as L<n> (others as .+N); 0 when a code has no
 * assembly form */
static int decode(uint64_t w, uint32_t addr, uint32_t labels, char *buf, size_t len) {
  unsigned alu = HWPROF_COP_UI_GET(w, ALU_OP), cam = HWPROF_COP_UI_GET(w, CAM_OP), dat = HWPROF_COP_UI_GET(w, DATA_OP),
           idx = HWPROF_COP_UI_GET(w, IDX_OP), cond = HWPROF_COP_UI_GET(w, COND), tgt = HWPROF_COP_UI_GET(w, TARGET);
  const char *a = hwprof_cop_src_asm[HWPROF_COP_UI_GET(w, SRC_A)], *b = hwprof_cop_src_asm[HWPROF_COP_UI_GET(w, SRC_B)];
  buf[0] = 0;
  if (!a || !b || !hwprof_cop_alu_op_asm[alu] || (dat && !hwprof_cop_data_op_asm[dat]) || (idx && !hwprof_cop_idx_op_asm[idx]) ||
      (cond && !hwprof_cop_cond_asm[cond]))
    return 0;
  if (cond && !hwprof_cop_target_has_offset[tgt] && !hwprof_cop_target_asm[tgt]) return 0;
  const char *sep = "";
  if (alu == HWPROF_COP_ALU_OP_NOP) {
    if (cond == HWPROF_COP_COND_Z || cond == HWPROF_COP_COND_NZ) {
      cat(buf, len, "cmp %s", a);
      sep = " | ";
    }
  } else {
    unsigned d = HWPROF_COP_UI_GET(w, ALU_DST);
    if (alu == HWPROF_COP_ALU_OP_MOV) cat(buf, len, "mov v%u, %s", d, a);
    else if (alu == HWPROF_COP_ALU_OP_RAND) cat(buf, len, "rand v%u, %s", d, b);
    else cat(buf, len, "%s v%u, %s, %s", hwprof_cop_alu_op_asm[alu], d, a, b);
    sep = " | ";
  }
  if (cam) {
    unsigned i = HWPROF_COP_UI_GET(w, CAM_IDX);
    if (cam == HWPROF_COP_CAM_OP_INVAL) cat(buf, len, "%scinval i%u", sep, i);
    else cat(buf, len, "%s%s i%u, %s", sep, hwprof_cop_cam_op_asm[cam], i, a);
    sep = " | ";
  }
  if (dat) {
    unsigned bb = HWPROF_COP_UI_GET(w, DATA_BASE), i = HWPROF_COP_UI_GET(w, DATA_IDX);
    if (dat == HWPROF_COP_DATA_OP_READ) cat(buf, len, "%sld v%u, b%u[i%u]", sep, HWPROF_COP_UI_GET(w, DATA_REG), bb, i);
    else if (dat == HWPROF_COP_DATA_OP_WRITE) cat(buf, len, "%sst b%u[i%u], %s", sep, bb, i, b);
    else cat(buf, len, "%s%s b%u[i%u]", sep, hwprof_cop_data_op_asm[dat], bb, i);
    sep = " | ";
  }
  if (idx) {
    unsigned r = HWPROF_COP_UI_GET(w, IDX_REG);
    if (idx == HWPROF_COP_IDX_OP_LOAD) cat(buf, len, "%siload i%u, %s", sep, r, a);
    else cat(buf, len, "%s%s i%u", sep, hwprof_cop_idx_op_asm[idx], r);
    sep = " | ";
  }
  if (cond) {
    unsigned pred = HWPROF_COP_UI_GET(w, PRED);
    cat(buf, len, "%s%s%s ", sep, hwprof_cop_cond_asm[cond], cond == HWPROF_COP_COND_ALWAYS ? "" : kPred[pred]);
    if (cond >= HWPROF_COP_COND_EQ && cond <= HWPROF_COP_COND_GEU) cat(buf, len, "%s, %s, ", a, b);
    if (hwprof_cop_target_has_offset[tgt]) {
      int64_t to = (int64_t)addr + hwprof_cop_target_offset[tgt];
      if (to >= 0 && to < (int64_t)labels) cat(buf, len, "L%" PRId64, to);
      else if (hwprof_cop_target_offset[tgt] == 0) cat(buf, len, ".");
      else cat(buf, len, ".%+d", hwprof_cop_target_offset[tgt]);
    } else {
      cat(buf, len, "%s", hwprof_cop_target_asm[tgt]);
    }
    sep = " | ";
  }
  if (!*sep) cat(buf, len, "nop");
  return 1;
}

/* is text the assembler's form of w (does it assemble back to w)? */
static int canonical(uint64_t w, uint32_t addr, const char *text, const hwprof_cop_image_t *img) {
  ctx_t c;
  char err[256], line[LINE_LEN];
  memset(&c, 0, sizeof c);
  c.name = "disassembly";
  c.err = err;
  c.errlen = sizeof err;
  c.auto_labels = 1;
  if (img)
    for (unsigned r = 0; r < HWPROF_COP_NUM_TREGS; r++) {
      c.t[r] = img->t[r];
      c.tset[r] = 1;
    }
  snprintf(line, sizeof line, "%s", text);
  c.lstart = line;
  uint64_t back;
  return instruction(&c, line, addr, &back) == 0 && back == w;
}

int cop_disasm_word(uint64_t word, char *buf, size_t len) {
  char text[LINE_LEN];
  if (decode(word, 0, 0, text, sizeof text) && canonical(word, 0, text, NULL)) {
    snprintf(buf, len, "%s", text);
    return 1;
  }
  snprintf(buf, len, ".word 0x%012" PRIx64, word);
  return 0;
}

int cop_disasm(FILE *f, const hwprof_cop_image_t *img) {
  uint8_t target[HWPROF_COP_IMAGE_MAX_UC] = {0};
  for (unsigned k = 0; k < HWPROF_COP_KINDS; k++)
    if (img->kinds >> k & 1u && img->dispatch[k] < img->n_uc) target[img->dispatch[k]] = 1;
  for (unsigned r = 0; r < HWPROF_COP_NUM_TREGS; r++)
    if (img->t[r] && img->t[r] < img->n_uc) target[img->t[r]] = 1;
  for (uint32_t a = 0; a < img->n_uc && a < HWPROF_COP_IMAGE_MAX_UC; a++) {
    uint64_t w = img->uc[a];
    unsigned tgt = HWPROF_COP_UI_GET(w, TARGET);
    if (HWPROF_COP_UI_GET(w, COND) && hwprof_cop_target_has_offset[tgt]) {
      int64_t to = (int64_t)a + hwprof_cop_target_offset[tgt];
      if (to >= 0 && to < (int64_t)img->n_uc) target[to] = 1;
    }
  }
  fprintf(f, "# disassembled by hwprof-cpasm\n");
  if (img->fields) {
    fprintf(f, ".fields");
    const char *sep = " ";
    for (unsigned b = 0; b <= HWPROF_SFIELD_VALUE; b++)
      if (img->fields >> b & 1u) {
        fprintf(f, "%s%s", sep, kField[b]);
        sep = ", ";
      }
    fprintf(f, "\n");
  }
  for (unsigned k = 0; k < HWPROF_COP_KINDS; k++)
    if (img->kinds >> k & 1u) {
      if (img->dispatch[k] < img->n_uc) fprintf(f, ".dispatch %s, L%u\n", kKind[k], img->dispatch[k]);
      else fprintf(f, "# .dispatch %s: address %u lies outside the program\n", kKind[k], img->dispatch[k]);
    }
  for (unsigned n = 0; n < HWPROF_COP_NUM_CREGS; n++)
    if (img->c[n]) fprintf(f, ".const c%u, 0x%x\n", n, img->c[n]);
  for (unsigned n = 0; n < HWPROF_COP_NUM_BREGS; n++)
    if (img->base[n] || img->base_size[n]) fprintf(f, ".base b%u, 0x%x, %s\n", n, img->base[n], kSize[img->base_size[n] % 3]);
  for (unsigned n = 0; n < HWPROF_COP_NUM_TREGS; n++) {
    if (!img->t[n]) continue;
    if (img->t[n] < img->n_uc) fprintf(f, ".target t%u, L%u\n", n, img->t[n]);
    else fprintf(f, "# .target t%u: address %u lies outside the program\n", n, img->t[n]);
  }
  for (unsigned n = 0; n < HWPROF_COP_NUM_IREGS; n++)
    if (img->idxw[n] != COP_IDXW_MAX) fprintf(f, ".idxw i%u, %u\n", n, img->idxw[n]);
  if (img->lfsr != COP_LFSR_RESET) fprintf(f, ".lfsr 0x%x\n", img->lfsr);
  for (uint32_t a = 0; a < img->n_uc && a < HWPROF_COP_IMAGE_MAX_UC; a++) {
    char text[LINE_LEN];
    uint64_t w = img->uc[a];
    int ok = decode(w, a, img->n_uc, text, sizeof text);
    char label[16] = "";
    if (target[a]) snprintf(label, sizeof label, "L%u:", a);
    if (ok && canonical(w, a, text, img)) fprintf(f, "%-6s %s\n", label, text);
    else fprintf(f, "%-6s .word 0x%012" PRIx64 "%s%s\n", label, w, ok ? "  # " : "", ok ? text : "");
  }
  return ferror(f) ? -1 : 0;
}
