/* Memory model for the profile cache's memory port; see mem_model.h. */
#include "mem_model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t next_rand(uint64_t *s) {
  uint64_t z = (*s += UINT64_C(0x9e3779b97f4a7c15));
  z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
  return z ^ (z >> 31);
}

static unsigned word_bytes(const mem_model_t *m) { return m->cfg.cnt_w / 8u; }
static unsigned line_bytes(const mem_model_t *m) { return word_bytes(m) * m->cfg.line_words; }

int mem_model_init(mem_model_t *m, const mem_model_cfg_t *cfg) {
  memset(m, 0, sizeof *m);
  if (cfg->cnt_w != 8 && cfg->cnt_w != 16 && cfg->cnt_w != 32 && cfg->cnt_w != 64) return HWPROF_EINVAL;
  if (cfg->line_words < 1 || cfg->line_words > EP_MAX_LINE_WORDS) return HWPROF_EINVAL;
  if (cfg->lat_min < 1 || cfg->lat_max < cfg->lat_min || cfg->grant_pct < 1 || cfg->grant_pct > 100)
    return HWPROF_EINVAL;
  unsigned lb = cfg->cnt_w / 8u * cfg->line_words;
  if (cfg->size == 0 || cfg->size % lb || cfg->base % lb || cfg->size > (UINT64_C(1) << 32)) return HWPROF_EINVAL;
  m->cfg = *cfg;
  m->bytes = calloc(cfg->size, 1);
  if (!m->bytes) return HWPROF_EINVAL;
  m->rng = cfg->seed ^ UINT64_C(0x6d656d6f7279);
  m->grant_now = next_rand(&m->rng) % 100u < cfg->grant_pct;
  return HWPROF_OK;
}

void mem_model_free(mem_model_t *m) {
  free(m->bytes);
  m->bytes = NULL;
}

static bool in_range(const mem_model_t *m, uint64_t addr, unsigned len) {
  return addr >= m->cfg.base && addr - m->cfg.base <= m->cfg.size - len;
}

bool mem_model_peek(const mem_model_t *m, uint64_t addr, uint64_t *value) {
  unsigned wb = word_bytes(m);
  if (!in_range(m, addr, wb)) return false;
  uint64_t v = 0;
  for (unsigned i = 0; i < wb; i++) v |= (uint64_t)m->bytes[addr - m->cfg.base + i] << (8 * i);
  *value = v;
  return true;
}

bool mem_model_poke(mem_model_t *m, uint64_t addr, uint64_t value) {
  unsigned wb = word_bytes(m);
  if (!in_range(m, addr, wb)) return false;
  for (unsigned i = 0; i < wb; i++) m->bytes[addr - m->cfg.base + i] = (uint8_t)(value >> (8 * i));
  return true;
}

static void fail(mem_model_t *m, const char *what, uint64_t addr) {
  m->errors++;
  if (m->error[0] == '\0')
    snprintf(m->error, sizeof m->error, "%s of line 0x%010llx outside the memory [0x%010llx, +0x%llx)", what,
             (unsigned long long)addr, (unsigned long long)m->cfg.base, (unsigned long long)m->cfg.size);
}

void mem_model_comb(const mem_model_t *m, mem_rsp_t *out) {
  memset(out, 0, sizeof *out);
  out->ready = m->grant_now && !m->rd_pending;
  out->rsp_valid = m->rd_pending && m->rd_wait == 0;
  if (out->rsp_valid && in_range(m, m->rd_addr, line_bytes(m))) {
    for (unsigned w = 0; w < m->cfg.line_words; w++)
      mem_model_peek(m, m->rd_addr + (uint64_t)w * word_bytes(m), &out->rdata.w[w]);
  }
}

void mem_model_step(mem_model_t *m, const mem_req_t *req) {
  mem_rsp_t now;
  mem_model_comb(m, &now);
  if (now.rsp_valid) m->rd_pending = false;
  else if (m->rd_pending) m->rd_wait--;
  if (req->valid && now.ready) {
    if (req->write) {
      m->writes++;
      if (!in_range(m, req->addr, line_bytes(m))) fail(m, "write", req->addr);
      else
        for (unsigned w = 0; w < m->cfg.line_words; w++)
          mem_model_poke(m, req->addr + (uint64_t)w * word_bytes(m), req->wdata.w[w]);
    } else {
      m->reads++;
      if (!in_range(m, req->addr, line_bytes(m))) fail(m, "read", req->addr);
      m->rd_pending = true;
      m->rd_addr = req->addr;
      unsigned span = m->cfg.lat_max - m->cfg.lat_min + 1u;
      m->rd_wait = m->cfg.lat_min - 1u + (unsigned)(next_rand(&m->rng) % span);
    }
  }
  m->grant_now = next_rand(&m->rng) % 100u < m->cfg.grant_pct;
}
