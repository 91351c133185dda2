/* The memory behind the profile cache's memory port; see mem_model.h. */
#include "mem/mem_model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t next_rand(uint64_t *s) {
  uint64_t z = (*s += UINT64_C(0x9e3779b97f4a7c15));
  z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
  return z ^ (z >> 31);
}

static unsigned word_bytes(const hwprof_mem_model_t *m) { return m->cfg.cnt_w / 8u; }

static hwprof_result_t check(const hwprof_mem_model_cfg_t *cfg) {
  if (cfg->cnt_w != 8 && cfg->cnt_w != 16 && cfg->cnt_w != 32 && cfg->cnt_w != 64) return kHwprofBadArg;
  if (cfg->line_words < 1 || cfg->line_words > HWPROF_EP_MAX_LINE_WORDS) return kHwprofBadArg;
  if (cfg->lat_min < 1 || cfg->lat_max < cfg->lat_min || cfg->grant_pct < 1 || cfg->grant_pct > 100)
    return kHwprofBadArg;
  if (cfg->size == 0 || cfg->size > (UINT64_C(1) << 32) || cfg->base % (cfg->cnt_w / 8u)) return kHwprofBadArg;
  return kHwprofOk;
}

hwprof_result_t hwprof_mem_model_init_over(hwprof_mem_model_t *m, const hwprof_mem_model_cfg_t *cfg, uint8_t *bytes) {
  memset(m, 0, sizeof *m);
  if (bytes == NULL || check(cfg) != kHwprofOk) return kHwprofBadArg;
  m->cfg = *cfg;
  m->bytes = bytes;
  m->rng = cfg->seed ^ UINT64_C(0x6d656d6f7279);
  m->grant_now = next_rand(&m->rng) % 100u < cfg->grant_pct;
  return kHwprofOk;
}

hwprof_result_t hwprof_mem_model_init(hwprof_mem_model_t *m, const hwprof_mem_model_cfg_t *cfg) {
  memset(m, 0, sizeof *m);
  if (check(cfg) != kHwprofOk) return kHwprofBadArg;
  uint8_t *bytes = calloc(cfg->size, 1);
  if (bytes == NULL) return kHwprofBadArg;
  hwprof_result_t rc = hwprof_mem_model_init_over(m, cfg, bytes);
  m->owned = true;
  return rc;
}

void hwprof_mem_model_free(hwprof_mem_model_t *m) {
  if (m->owned) free(m->bytes);
  m->bytes = NULL;
}

static bool in_range(const hwprof_mem_model_t *m, uint64_t addr, unsigned len) {
  return addr >= m->cfg.base && len <= m->cfg.size && addr - m->cfg.base <= m->cfg.size - len;
}

/* A word of wb bytes, little-endian, at byte offset off of the memory (in range). */
static uint64_t get_word(const hwprof_mem_model_t *m, uint64_t off, unsigned wb) {
  uint64_t v = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  switch (wb) { /* the host's order is the memory's (each size a constant: no call) */
    case 8: memcpy(&v, m->bytes + off, 8); break;
    case 4: memcpy(&v, m->bytes + off, 4); break;
    case 2: memcpy(&v, m->bytes + off, 2); break;
    default: memcpy(&v, m->bytes + off, wb); break;
  }
#else
  for (unsigned i = 0; i < wb; i++) v |= (uint64_t)m->bytes[off + i] << (8 * i);
#endif
  return v;
}
static void put_word(hwprof_mem_model_t *m, uint64_t off, unsigned wb, uint64_t value) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  switch (wb) {
    case 8: memcpy(m->bytes + off, &value, 8); break;
    case 4: memcpy(m->bytes + off, &value, 4); break;
    case 2: memcpy(m->bytes + off, &value, 2); break;
    default: memcpy(m->bytes + off, &value, wb); break;
  }
#else
  for (unsigned i = 0; i < wb; i++) m->bytes[off + i] = (uint8_t)(value >> (8 * i));
#endif
}

bool hwprof_mem_model_peek(const hwprof_mem_model_t *m, uint64_t addr, uint64_t *value) {
  unsigned wb = word_bytes(m);
  if (!in_range(m, addr, wb)) return false;
  *value = get_word(m, addr - m->cfg.base, wb);
  return true;
}

bool hwprof_mem_model_poke(hwprof_mem_model_t *m, uint64_t addr, uint64_t value) {
  unsigned wb = word_bytes(m);
  if (!in_range(m, addr, wb)) return false;
  put_word(m, addr - m->cfg.base, wb, value);
  return true;
}

static void fail(hwprof_mem_model_t *m, const char *what, uint64_t addr) {
  m->errors++;
  if (m->error[0] == '\0')
    snprintf(m->error, sizeof m->error, "%s of 0x%010llx outside the memory [0x%010llx, +0x%llx)", what,
             (unsigned long long)addr, (unsigned long long)m->cfg.base, (unsigned long long)m->cfg.size);
}

void hwprof_mem_model_rsp_line(const hwprof_mem_model_t *m, hwprof_line_t *line) {
  const unsigned wb = word_bytes(m);
  *line = (hwprof_line_t){0};
  if (in_range(m, m->rd_addr, wb * m->cfg.line_words)) { /* the whole line (almost always) */
    for (unsigned w = 0; w < m->cfg.line_words; w++) line->w[w] = get_word(m, m->rd_addr - m->cfg.base + w * wb, wb);
    return;
  }
  for (unsigned w = 0; w < m->cfg.line_words; w++)
    (void)hwprof_mem_model_peek(m, m->rd_addr + (uint64_t)w * wb, &line->w[w]);
}

void hwprof_mem_model_comb(const hwprof_mem_model_t *m, hwprof_mem_rsp_t *out) {
  out->ready = hwprof_mem_model_ready(m);
  out->rsp_valid = hwprof_mem_model_rsp_valid(m);
  if (out->rsp_valid) hwprof_mem_model_rsp_line(m, &out->rdata);
  else out->rdata = (hwprof_line_t){0};
}

void hwprof_mem_model_reset_port(hwprof_mem_model_t *m) {
  m->rd_pending = false;
  m->rd_wait = 0;
}

void hwprof_mem_model_step(hwprof_mem_model_t *m, const hwprof_mem_req_t *req) {
  const bool rsp_valid = hwprof_mem_model_rsp_valid(m), ready = hwprof_mem_model_ready(m);
  if (rsp_valid) {
    m->rd_pending = false;
    if (!in_range(m, m->rd_addr, word_bytes(m) * m->cfg.line_words))
      for (unsigned w = 0; w < m->cfg.line_words; w++)
        if (!in_range(m, m->rd_addr + (uint64_t)w * word_bytes(m), word_bytes(m)))
          fail(m, "read", m->rd_addr + (uint64_t)w * word_bytes(m));
  } else if (m->rd_pending) {
    m->rd_wait--;
  }
  if (req->valid && ready) {
    if (req->write) {
      m->writes++;
      const unsigned wb = word_bytes(m);
      if (in_range(m, req->addr, wb * m->cfg.line_words)) { /* the whole line (almost always) */
        for (unsigned w = 0; w < m->cfg.line_words; w++) put_word(m, req->addr - m->cfg.base + w * wb, wb, req->wdata.w[w]);
      } else {
        for (unsigned w = 0; w < m->cfg.line_words; w++) {
          uint64_t a = req->addr + (uint64_t)w * wb;
          if (!hwprof_mem_model_poke(m, a, req->wdata.w[w])) fail(m, "write", a);
        }
      }
    } else {
      m->reads++;
      m->rd_pending = true;
      m->rd_addr = req->addr;
      unsigned span = m->cfg.lat_max - m->cfg.lat_min + 1u;
      m->rd_wait = m->cfg.lat_min - 1u + (unsigned)(next_rand(&m->rng) % span);
    }
  }
  /* a port that always grants with a fixed latency draws nothing: no draw could change anything */
  if (m->cfg.grant_pct < 100u || m->cfg.lat_min != m->cfg.lat_max) m->grant_now = next_rand(&m->rng) % 100u < m->cfg.grant_pct;
}
