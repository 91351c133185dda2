"""C outputs: the shared header of constants (sw/include/autogen/hwprof_regs.h) and, per window, the C
model's register block (cmodel/<block>/autogen/<block>_reg.{h,c}), the twin of
rtl/<block>/autogen/hwprof_<block>_reg.sv.

The C block differs from the RTL in one way only: the engine model reads the flops of its register
block from the state struct directly (they are the reg2hw values of the RTL), so reg2hw in C
carries only the strobes and the written values, and the engine fills hw2reg only in cycles with
an access (its w1c set inputs in every cycle), which keeps the model's hot path short."""

from .desc import (array_addr, array_reg2hw, arrays, block_hw2reg, block_reg2hw, config_rule, field_source, flops,
                   param, reg2hw_fields, reg_addr, reg_masks, writable)


def header(banner, enc, blocks):
    out = [f"/* {banner} */", "#ifndef HWPROF_REGS_H", "#define HWPROF_REGS_H", ""]
    out.append("/* ---- widths and parameters */")
    for p in enc["params"]:
        v = f"0x{p['value']:08x}u" if p["value"] > 0xffff else f"{p['value']}u"
        out.append(f"#define HWPROF_{p['name']} {v} /* {p['desc']} */")
    out.append("")
    out.append("/* ---- build parameters of hwprof_top: default, smallest and largest value the RTL and the C model")
    out.append(" * accept (the RTL's parameter defaults are the same constants, hwprof_pkg) */")
    for c in enc.get("config", []):
        out.append(f"#define HWPROF_{c['c']}_DEFAULT {c['default']}u /* {c['name']}: {c['desc']} ({config_rule(c)}) */")
        out.append(f"#define HWPROF_{c['c']}_MIN {c['min']}u")
        out.append(f"#define HWPROF_{c['c']}_MAX {c['max']}u")
    out.append("")
    for e in enc["enums"]:
        out.append(f"/* ---- {e['desc']} */")
        for v in e["values"]:
            out.append(f"#define HWPROF_{e['name'].upper()}_{v['name']} {v['value']}u /* {v['desc']} */")
        out.append(f"#define HWPROF_{e['name'].upper()}_WIDTH {e['width']}u")
        out.append("")
    for blk in blocks:
        bn = f"HWPROF_{blk['name'].upper()}"
        out.append(f"/* ---- register window '{blk['name']}': {blk['desc']} */")
        out.append(f"#define {bn}_WINDOW {blk['window']}u")
        if blk["windows"] > 1:
            out.append(f"#define {bn}_WINDOWS {blk['windows']}u /* consecutive windows from {bn}_WINDOW */")
        for r in blk["registers"]:
            wmask, rmask, reset = reg_masks(r)
            rn = f"{bn}_{r['name']}"
            out.append(f"#define {rn}_ADDR 0x{reg_addr(enc, blk, r):04x}u /* {r['desc']} */")
            out.append(f"#define {rn}_WMASK 0x{wmask:08x}u")
            out.append(f"#define {rn}_RMASK 0x{rmask:08x}u")
            out.append(f"#define {rn}_RESVAL 0x{reset:08x}u")
            for f in r["fields"]:
                fm = (1 << f["width"]) - 1
                out.append(f"#define {rn}_{f['name']}_LSB {f['lsb']}u")
                out.append(f"#define {rn}_{f['name']}_WIDTH {f['width']}u")
                out.append(f"#define {rn}_{f['name']}_MASK 0x{fm:x}u")
        for a in arrays(blk):
            an = f"{bn}_{a['name']}"
            out.append(f"#define {an}_ADDR 0x{array_addr(enc, blk, a):04x}u /* array: {a['desc']} */")
            out.append(f"#define {an}_ENTRIES {a['entries']}u")
        out.append("")
    out.append("#endif /* HWPROF_REGS_H */")
    return "\n".join(out) + "\n"


def _ctype(w):
    return "bool" if w == 1 else "uint32_t"


def _mask(w):
    return f"0x{(1 << w) - 1:x}u"


def _struct(name, members, what):
    out = [f"/* {what} */", "typedef struct {"]
    if not members:
        out.append("  bool unused;")
    for m, w in members:
        out.append(f"  {_ctype(w)} {m};")
    out.append(f"}} {name};")
    return out


def block_h(banner, enc, blk):
    b = blk["name"]
    guard = f"HWPROF_{b.upper()}_REG_H"
    regs = blk["registers"]
    p = f"hwprof_{b}"
    out = [f"/* {banner}", f" * The C model of rtl/{b}/autogen/hwprof_{b}_reg.sv, the register block of window '{b}'.", " */",
           f"#ifndef {guard}", f"#define {guard}", "", '#include "ports.h"', ""]
    out += _struct(f"{p}_reg_state_t", [(f"{r['name'].lower()}_{f['name'].lower()}", f["width"])
                                        for r in regs for f in flops(r)],
                   "The flops of the register block (the engine reads them directly).")
    out.append("")
    out += _struct(f"{p}_hw2reg_t", block_hw2reg(blk), "What the engine gives the register block.")
    out.append("")
    what = "Strobes and written values for the engine (valid in the cycle of the access)."
    if arrays(blk):
        what = "Strobes and written values for the engine (valid in the cycle of the access; an array's\n * index in every cycle)."
    out += _struct(f"{p}_reg2hw_t", [(m, w) for m, w, k in block_reg2hw(blk) if k != "flop"], what)
    for a in arrays(blk):
        an = a["name"].lower()
        w = [w for m, w, k in array_reg2hw(a) if k == "index"][0]
        out += ["", f"/* The entry of array {a['name']} an address names (the engine fills hw2reg {an}_rdata with it). */",
                f"static inline uint32_t {p}_reg_{an}_index(uint16_t addr) {{",
                f"  return ((uint32_t)(uint16_t)(addr - HWPROF_{b.upper()}_{a['name']}_ADDR) >> 2) & {_mask(w)};", "}"]
    out += ["", f"void {p}_reg_reset({p}_reg_state_t *s);",
            "/* This cycle's response and strobes. hw2reg's read values are used only when req->access. */",
            f"void {p}_reg_comb(const {p}_reg_state_t *s, const hwprof_reg_req_t *req, const {p}_hw2reg_t *hw,",
            f"    {p}_reg2hw_t *r2h, hwprof_reg_rsp_t *rsp);",
            "/* The clock edge of the register block's flops. */",
            f"void {p}_reg_step({p}_reg_state_t *s, const hwprof_reg_req_t *req, const {p}_hw2reg_t *hw);",
            "", f"#endif /* {guard} */"]
    return "\n".join(out) + "\n"


def _read_expr(reg):
    terms = []
    for f in reg["fields"]:
        n = f"{reg['name'].lower()}_{f['name'].lower()}"
        src = field_source(reg, f)
        if src == "hw":
            v = f"((uint32_t)hw->{n} & {_mask(f['width'])})"
        elif src == "flop":
            v = f"(uint32_t)s->{n}"
        elif src == "const":
            v = f"0x{f['reset']:x}u"
        else:
            continue
        terms.append(f"({v} << {f['lsb']})" if f["lsb"] else v)
    return " | ".join(terms) if terms else "0"


def block_c(banner, enc, blk):
    b = blk["name"]
    B = b.upper()
    regs = blk["registers"]
    p = f"hwprof_{b}"
    out = [f"/* {banner} */", f'#include "{b}_reg.h"', "", "#include <string.h>", "",
           "typedef struct {", "  bool hit;     /* the address names a register */",
           "  bool ro;      /* ... with no writable field */", "  bool refused; /* ... whose write the engine refuses */",
           "  uint32_t rdata;", "} decode_t;", "",
           ]
    for a in arrays(blk):
        base = f"HWPROF_{B}_{a['name']}_ADDR"
        out += [f"static bool in_{a['name'].lower()}(uint16_t addr) {{",
                f"  return addr >= {base} && addr < {base} + {4 * a['entries']}u && (addr & 3u) == 0;", "}", ""]
    out += [f"static decode_t decode(const {p}_reg_state_t *s, uint16_t addr, const {p}_hw2reg_t *hw) {{",
            "  decode_t d = {true, false, false, 0};"]
    uses_s = any(field_source(r, f) == "flop" for r in regs for f in r["fields"])
    uses_hw = any(field_source(r, f) == "hw" for r in regs for f in r["fields"]) or \
        any(r.get("refuse") is not None for r in regs) or bool(arrays(blk))
    if not uses_s:
        out.append("  (void)s;")
    if not uses_hw:
        out.append("  (void)hw;")
    for a in arrays(blk):
        an = a["name"].lower()
        body = [f"d.rdata = hw->{an}_rdata;"]
        if a["access"] == "ro":
            body.append("d.ro = true;")
        if a.get("refuse") is not None:
            body.append(f"d.refused = hw->{an}_refuse;")
        out.append(f"  if (in_{an}(addr)) {{")
        for x in body:
            out.append(f"    {x}")
        out.append("    return d;")
        out.append("  }")
    out.append("  switch (addr) {")
    for r in regs:
        body = [f"d.rdata = {_read_expr(r)};"]
        if not writable(r):
            body.append("d.ro = true;")
        if r.get("refuse") is not None:
            body.append(f"d.refused = hw->{r['name'].lower()}_refuse;")
        out.append(f"    case HWPROF_{B}_{r['name']}_ADDR: {' '.join(body)} break;")
    out += ["    default: d.hit = false; break;", "  }", "  return d;", "}", ""]
    out += [f"void {p}_reg_reset({p}_reg_state_t *s) {{", "  memset(s, 0, sizeof *s);"]
    for r in regs:
        for f in flops(r):
            if f["reset"]:
                out.append(f"  s->{r['name'].lower()}_{f['name'].lower()} = 0x{f['reset']:x}u;")
    out += ["}", ""]
    # comb
    out += [f"void {p}_reg_comb(const {p}_reg_state_t *s, const hwprof_reg_req_t *req, const {p}_hw2reg_t *hw,",
            f"    {p}_reg2hw_t *r2h, hwprof_reg_rsp_t *rsp) {{",
            "  memset(r2h, 0, sizeof *r2h);", "  rsp->rdata = 0;", "  rsp->error = false;"]
    for a in arrays(blk):
        out.append(f"  r2h->{a['name'].lower()}_index = {p}_reg_{a['name'].lower()}_index(req->addr);")
    out += ["  if (!req->access) return;", "  decode_t d = decode(s, req->addr, hw);",
            "  rsp->error = !d.hit || (req->write && (d.ro || d.refused));",
            "  if (!req->write) {", "    if (d.hit) rsp->rdata = d.rdata;"]
    for r in regs:
        if r.get("read_pulse", False):
            out.append(f"    r2h->{r['name'].lower()}_re = req->addr == HWPROF_{B}_{r['name']}_ADDR;")
    for a in arrays(blk):
        if a.get("read_pulse", False):
            out.append(f"    r2h->{a['name'].lower()}_re = in_{a['name'].lower()}(req->addr);")
    out += ["    return;", "  }", "  if (!d.hit || d.ro || d.refused) return;"]
    for a in arrays(blk):
        if a["access"] == "rw":
            an = a["name"].lower()
            out += [f"  if (in_{an}(req->addr)) {{", f"    r2h->{an}_we = true;", f"    r2h->{an}_wdata = req->wdata;",
                    "    return;", "  }"]
    out += ["  switch (req->addr) {"]
    for r in regs:
        ms = [(m, w, k) for m, w, k in reg2hw_fields(r) if k in ("qe", "wdata")]
        if not ms:
            continue
        body = []
        for m, w, k in ms:
            if k == "qe":
                body.append(f"r2h->{m} = true;")
            else:
                f = next(f for f in r["fields"] if f"{r['name'].lower()}_{f['name'].lower()}" == m)
                sh = f"req->wdata >> {f['lsb']}" if f["lsb"] else "req->wdata"
                body.append(f"r2h->{m} = ({sh}) & {_mask(w)};")
        out.append(f"    case HWPROF_{B}_{r['name']}_ADDR:")
        for x in body:
            out.append(f"      {x}")
        out.append("      break;")
    out += ["    default: break;", "  }", "}", ""]
    # step
    out += [f"void {p}_reg_step({p}_reg_state_t *s, const hwprof_reg_req_t *req, const {p}_hw2reg_t *hw) {{"]
    fl = [(r, f) for r in regs for f in flops(r)]
    if not fl:
        out += ["  (void)s;", "  (void)req;", "  (void)hw;", "}"]
        return "\n".join(out) + "\n"
    has_set = any(f["access"] == "w1c" for _, f in fl)
    if not has_set:
        out.append("  (void)hw;")
    out.append("  bool we = false;")
    out.append("  if (req->access && req->write) {")
    out.append("    decode_t d = decode(s, req->addr, hw);")
    out.append("    we = d.hit && !d.ro && !d.refused;")
    out.append("  }")
    for r, f in fl:
        n = f"{r['name'].lower()}_{f['name'].lower()}"
        sel = f"we && req->addr == HWPROF_{B}_{r['name']}_ADDR"
        sh = f"(req->wdata >> {f['lsb']})" if f["lsb"] else "req->wdata"
        w = f["width"]
        if f["access"] == "w1c":
            out.append(f"  s->{n} = ((s->{n} & ~(({sel}) ? {sh} & {_mask(w)} : 0u)) | hw->{n}_set) & {_mask(w)};"
                       if w > 1 else
                       f"  s->{n} = (s->{n} && !(({sel}) && ({sh} & 1u))) || hw->{n}_set;")
        else:
            cast = "(bool)" if w == 1 else ""
            out.append(f"  if ({sel}) s->{n} = {cast}({sh} & {_mask(w)});")
    out.append("}")
    return "\n".join(out) + "\n"
