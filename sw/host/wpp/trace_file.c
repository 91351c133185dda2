/* Trace files and block files; see trace_file.h and docs/wpp.md. */
#include "trace_file.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static void put32(uint8_t *p, uint32_t v) {
  for (unsigned i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static uint32_t get32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static int put_pair(FILE *f, uint32_t a, uint32_t b) {
  uint8_t w[8];
  put32(w, a);
  put32(w + 4, b);
  return fwrite(w, 1, 8, f) == 8 ? 0 : -1;
}

int hwprof_wpp_slurp(const char *path, uint8_t **buf, size_t *len, char *err, size_t errlen) {
  *buf = NULL;
  *len = 0;
  FILE *f = fopen(path, "rb");
  if (f == NULL) {
    snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
    return -1;
  }
  size_t cap = 1u << 16, n = 0;
  uint8_t *b = malloc(cap);
  for (;;) {
    if (b == NULL) {
      fclose(f);
      snprintf(err, errlen, "%s: out of memory", path);
      return -1;
    }
    n += fread(b + n, 1, cap - n, f);
    if (n < cap) break;
    uint8_t *nb = cap > SIZE_MAX / 2 ? NULL : realloc(b, cap * 2);
    if (nb == NULL) free(b);
    b = nb;
    cap *= 2;
  }
  const int bad = ferror(f);
  fclose(f);
  if (bad) {
    free(b);
    snprintf(err, errlen, "%s: read error", path);
    return -1;
  }
  *buf = b;
  *len = n;
  return 0;
}

int hwprof_wpp_check_header(const uint8_t *buf, size_t len, size_t min, const char *magic, const char *kind,
                            const char *name, char *err, size_t errlen) {
  if (len < min || len < 12 || memcmp(buf, magic, 8) != 0) {
    snprintf(err, errlen, "%s: not a hwprof %s file (no '%.8s' header)", name, kind, magic);
    return -1;
  }
  if (get32(buf + 8) != HWPROF_WPP_FILE_VERSION) {
    snprintf(err, errlen, "%s: %s file version %" PRIu32 " (this tool reads version %u)", name, kind, get32(buf + 8),
             HWPROF_WPP_FILE_VERSION);
    return -1;
  }
  return 0;
}

int hwprof_wpp_load(const char *path, hwprof_wpp_parse_fn parse, void *obj, char *err, size_t errlen) {
  uint8_t *buf;
  size_t len;
  if (hwprof_wpp_slurp(path, &buf, &len, err, errlen)) return -1;
  const int rc = parse(obj, buf, len, path, err, errlen);
  free(buf);
  return rc;
}

/* ---------------------------------------------------------------- trace files */

int hwprof_trf_create(hwprof_trf_writer_t *w, const char *path, unsigned hist_w, uint32_t entry_pc, char *err,
                      size_t errlen) {
  memset(w, 0, sizeof *w);
  if ((w->f = fopen(path, "wb")) == NULL) {
    snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
    return -1;
  }
  uint8_t h[HWPROF_TRF_HEADER_BYTES] = {0};
  memcpy(h, HWPROF_TRF_MAGIC, 8);
  put32(h + 8, HWPROF_WPP_FILE_VERSION);
  put32(h + 12, hist_w);
  put32(h + 16, entry_pc);
  if (fwrite(h, 1, sizeof h, w->f) != sizeof h) {
    fclose(w->f);
    w->f = NULL;
    snprintf(err, errlen, "%s: write error", path);
    return -1;
  }
  return 0;
}

int hwprof_trf_put(hwprof_trf_writer_t *w, uint32_t start, uint32_t hist) {
  w->records++;
  return put_pair(w->f, start, hist);
}

int hwprof_trf_finish(hwprof_trf_writer_t *w, bool has_tail, uint32_t tail_start, uint32_t tail_hist, uint64_t insns,
                      uint32_t dropped, uint32_t last_pc) {
  int bad = 0;
  if (has_tail) bad |= put_pair(w->f, HWPROF_TRF_TAIL, 0) | put_pair(w->f, tail_start, tail_hist);
  bad |= put_pair(w->f, HWPROF_TRF_END, 0) | put_pair(w->f, (uint32_t)insns, (uint32_t)(insns >> 32)) |
         put_pair(w->f, dropped, last_pc);
  bad |= fclose(w->f) != 0 ? -1 : 0;
  w->f = NULL;
  return bad ? -1 : 0;
}

static bool marker_fits(uint32_t hist, unsigned hist_w) { return hist != 0 && (hist_w == 32 || (hist >> hist_w) == 0); }

int hwprof_trf_parse(hwprof_trf_t *t, const uint8_t *buf, size_t len, const char *name, char *err, size_t errlen) {
  memset(t, 0, sizeof *t);
  if (hwprof_wpp_check_header(buf, len, HWPROF_TRF_HEADER_BYTES, HWPROF_TRF_MAGIC, "trace", name, err, errlen)) return -1;
  t->hist_w = get32(buf + 12);
  t->entry_pc = get32(buf + 16);
  if (t->hist_w < 2 || t->hist_w > 32) {
    snprintf(err, errlen, "%s: offset 12: history width %u (expects 2..32)", name, t->hist_w);
    return -1;
  }
  const size_t body = len - HWPROF_TRF_HEADER_BYTES;
  const uint8_t *p = buf + HWPROF_TRF_HEADER_BYTES;
  if (body % 8u) {
    snprintf(err, errlen, "%s: truncated: %zu bytes after the last whole record at offset %zu", name, body % 8u,
             len - body % 8u);
    return -1;
  }
  const uint64_t words = body / 8u;
  t->rec = malloc((words ? words : 1) * sizeof *t->rec);
  if (t->rec == NULL) {
    snprintf(err, errlen, "%s: out of memory", name);
    return -1;
  }
  for (uint64_t i = 0; i < words; i++) {
    const uint32_t a = get32(p + 8 * i), b = get32(p + 8 * i + 4);
    if (b != 0) {
      if (!marker_fits(b, t->hist_w)) {
        snprintf(err, errlen, "%s: offset %" PRIu64 ": history 0x%08" PRIx32 " has no marker within %u bits", name,
                 hwprof_trf_offset(i), b, t->hist_w);
        goto fail;
      }
      t->rec[t->nrec++] = (hwprof_trf_rec_t){a, b};
      continue;
    }
    if (a == HWPROF_TRF_TAIL && i + 1 < words && !t->has_tail) {
      const uint32_t s = get32(p + 8 * (i + 1)), h = get32(p + 8 * (i + 1) + 4);
      if (!marker_fits(h, t->hist_w)) {
        snprintf(err, errlen, "%s: offset %" PRIu64 ": the unfinished trace's history 0x%08" PRIx32 " has no marker", name,
                 hwprof_trf_offset(i + 1), h);
        goto fail;
      }
      t->has_tail = true;
      t->tail = (hwprof_trf_rec_t){s, h};
      i++;
      continue;
    }
    if (a == HWPROF_TRF_END) {
      if (i + 3 != words) {
        snprintf(err, errlen, "%s: offset %" PRIu64 ": %s", name, hwprof_trf_offset(i),
                 i + 3 > words ? "truncated end record" : "data after the end record");
        goto fail;
      }
      t->insns = (uint64_t)get32(p + 8 * (i + 1)) | (uint64_t)get32(p + 8 * (i + 1) + 4) << 32;
      t->dropped = get32(p + 8 * (i + 2));
      t->last_pc = get32(p + 8 * (i + 2) + 4);
      return 0;
    }
    snprintf(err, errlen, "%s: offset %" PRIu64 ": unknown control record %" PRIu32 "%s", name, hwprof_trf_offset(i), a,
             a == HWPROF_TRF_TAIL ? " (a second or truncated unfinished-trace record)" : "");
    goto fail;
  }
  snprintf(err, errlen, "%s: truncated: no end record (the file stops at offset %zu after %" PRIu64 " traces)", name, len,
           t->nrec);
fail:
  hwprof_trf_free(t);
  return -1;
}

static int trf_parse(void *t, const uint8_t *buf, size_t len, const char *name, char *err, size_t errlen) {
  return hwprof_trf_parse(t, buf, len, name, err, errlen);
}
int hwprof_trf_load(hwprof_trf_t *t, const char *path, char *err, size_t errlen) {
  memset(t, 0, sizeof *t);
  return hwprof_wpp_load(path, trf_parse, t, err, errlen);
}

void hwprof_trf_free(hwprof_trf_t *t) {
  free(t->rec);
  memset(t, 0, sizeof *t);
}

/* ---------------------------------------------------------------- block files */

int hwprof_bkf_create(hwprof_bkf_writer_t *w, const char *path, char *err, size_t errlen) {
  memset(w, 0, sizeof *w);
  if ((w->f = fopen(path, "wb")) == NULL) {
    snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
    return -1;
  }
  uint8_t h[HWPROF_BKF_HEADER_BYTES] = {0};
  memcpy(h, HWPROF_BKF_MAGIC, 8);
  put32(h + 8, HWPROF_WPP_FILE_VERSION);
  if (fwrite(h, 1, sizeof h, w->f) != sizeof h) {
    fclose(w->f);
    w->f = NULL;
    snprintf(err, errlen, "%s: write error", path);
    return -1;
  }
  return 0;
}

int hwprof_bkf_put(hwprof_bkf_writer_t *w, uint32_t start, uint32_t insns) {
  w->blocks++;
  w->insns += insns;
  return put_pair(w->f, start, insns);
}

int hwprof_bkf_finish(hwprof_bkf_writer_t *w) {
  int bad = put_pair(w->f, 0, 0) | put_pair(w->f, (uint32_t)w->insns, (uint32_t)(w->insns >> 32));
  bad |= fclose(w->f) != 0 ? -1 : 0;
  w->f = NULL;
  return bad ? -1 : 0;
}

int hwprof_bkf_parse(hwprof_bkf_t *b, const uint8_t *buf, size_t len, const char *name, char *err, size_t errlen) {
  memset(b, 0, sizeof *b);
  if (hwprof_wpp_check_header(buf, len, HWPROF_BKF_HEADER_BYTES, HWPROF_BKF_MAGIC, "block", name, err, errlen)) return -1;
  const size_t body = len - HWPROF_BKF_HEADER_BYTES;
  const uint8_t *p = buf + HWPROF_BKF_HEADER_BYTES;
  if (body % 8u) {
    snprintf(err, errlen, "%s: truncated: %zu bytes after the last whole record at offset %zu", name, body % 8u,
             len - body % 8u);
    return -1;
  }
  const uint64_t words = body / 8u;
  b->ev = malloc((words ? words : 1) * sizeof *b->ev);
  if (b->ev == NULL) {
    snprintf(err, errlen, "%s: out of memory", name);
    return -1;
  }
  for (uint64_t i = 0; i < words; i++) {
    const uint32_t s = get32(p + 8 * i), n = get32(p + 8 * i + 4);
    const uint64_t off = HWPROF_BKF_HEADER_BYTES + 8u * i;
    if (n != 0) {
      if (s & 3u) {
        snprintf(err, errlen, "%s: offset %" PRIu64 ": block address 0x%08" PRIx32 " is not word-aligned", name, off, s);
        goto fail;
      }
      b->ev[b->n++] = (hwprof_block_ev_t){s, n};
      b->insns += n;
      continue;
    }
    if (s != 0 || i + 2 != words) {
      snprintf(err, errlen, "%s: offset %" PRIu64 ": %s", name, off,
               s != 0 ? "a block of 0 instructions" : i + 2 > words ? "truncated end record" : "data after the end record");
      goto fail;
    }
    const uint64_t total = (uint64_t)get32(p + 8 * (i + 1)) | (uint64_t)get32(p + 8 * (i + 1) + 4) << 32;
    if (total != b->insns) {
      snprintf(err, errlen, "%s: offset %" PRIu64 ": the end record says %" PRIu64 " instructions, the blocks hold %" PRIu64,
               name, off + 8, total, b->insns);
      goto fail;
    }
    return 0;
  }
  snprintf(err, errlen, "%s: truncated: no end record (the file stops at offset %zu after %" PRIu64 " blocks)", name, len,
           b->n);
fail:
  hwprof_bkf_free(b);
  return -1;
}

static int bkf_parse(void *b, const uint8_t *buf, size_t len, const char *name, char *err, size_t errlen) {
  return hwprof_bkf_parse(b, buf, len, name, err, errlen);
}
int hwprof_bkf_load(hwprof_bkf_t *b, const char *path, char *err, size_t errlen) {
  memset(b, 0, sizeof *b);
  return hwprof_wpp_load(path, bkf_parse, b, err, errlen);
}

void hwprof_bkf_free(hwprof_bkf_t *b) {
  free(b->ev);
  memset(b, 0, sizeof *b);
}
