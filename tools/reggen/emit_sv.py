"""SystemVerilog outputs: the package (parameters, enums, register constants, the hw2reg/reg2hw
structs of every window) and one register block module per window."""

from .desc import (array_addr, array_reg2hw, arrays, block_hw2reg, block_reg2hw, config_rule,
                   field_source, flops, param, reg_addr, reg_masks, reg2hw_fields, writable)


def _struct(name, members):
    out = ["  typedef struct packed {"]
    if not members:
        members = [("unused", 1)]
    for m, w in members:
        out.append(f"    logic {'' if w == 1 else f'[{w - 1}:0] '}{m};")
    out.append(f"  }} {name};")
    return out


def package(banner, enc, blocks):
    aw = param(enc, "APB_ADDR_W")
    shift = param(enc, "WINDOW_SHIFT")
    out = [f"// {banner}", "", "`default_nettype none", "", "package hwprof_pkg;", ""]
    out.append("  // ---- widths and parameters")
    for p in enc["params"]:
        v = f"32'h{p['value']:08x}" if p["value"] > 0xffff else f"{p['value']}"
        out.append(f"  localparam int unsigned {p['name']} = {v};  // {p['desc']}")
    out.append("")
    out.append("  // ---- build parameters of hwprof_top: defaults (the RTL's parameter defaults)")
    for c in enc.get("config", []):
        out.append(f"  localparam int unsigned {c['c']}_DEFAULT = {c['default']};  // {c['name']}: {c['desc']}")
    out.append("")
    for e in enc["enums"]:
        out.append(f"  // ---- {e['desc']}")
        out.append(f"  typedef enum logic [{e['width'] - 1}:0] {{")
        items = [f"    {e['name'].upper()}_{v['name']} = {e['width']}'d{v['value']}" for v in e["values"]]
        out.append(",\n".join(items))
        out.append(f"  }} {e['name']}_e;")
        out.append("")
    for blk in blocks:
        bn = blk["name"].upper()
        out.append(f"  // ---- register window '{blk['name']}': {blk['desc']}")
        out.append(f"  localparam logic [{aw - shift - 1}:0] {bn}_WINDOW = {aw - shift}'d{blk['window']};")
        if blk["windows"] > 1:
            out.append(f"  localparam int unsigned {bn}_WINDOWS = {blk['windows']};  // consecutive windows from {bn}_WINDOW")
        for r in blk["registers"]:
            wmask, rmask, reset = reg_masks(r)
            rn = f"{bn}_{r['name']}"
            out.append(f"  localparam logic [{aw - 1}:0] {rn}_ADDR = {aw}'h{reg_addr(enc, blk, r):04x};")
            out.append(f"  localparam logic [31:0] {rn}_WMASK = 32'h{wmask:08x};")
            out.append(f"  localparam logic [31:0] {rn}_RMASK = 32'h{rmask:08x};")
            out.append(f"  localparam logic [31:0] {rn}_RESVAL = 32'h{reset:08x};")
            for f in r["fields"]:
                out.append(f"  localparam int unsigned {rn}_{f['name']}_LSB = {f['lsb']};")
                out.append(f"  localparam int unsigned {rn}_{f['name']}_WIDTH = {f['width']};")
        for a in arrays(blk):
            an = f"{bn}_{a['name']}"
            out.append(f"  localparam logic [{aw - 1}:0] {an}_ADDR = {aw}'h{array_addr(enc, blk, a):04x};  // array")
            out.append(f"  localparam int unsigned {an}_ENTRIES = {a['entries']};")
        out.append("")
        out.append(f"  // what the engine gives its register block (hwprof_{blk['name']}_reg)")
        out += _struct(f"{blk['name']}_hw2reg_t", block_hw2reg(blk))
        out.append("  // what the register block gives its engine")
        out += _struct(f"{blk['name']}_reg2hw_t", [(m, w) for m, w, _ in block_reg2hw(blk)])
        out.append("")
    out.append("endpackage")
    out.append("")
    out.append("`default_nettype wire")
    return "\n".join(out) + "\n"


def _read_value(blk, reg):
    """The 32-bit read value of a register as a concatenation, most significant field first."""
    parts = []
    pos = 32
    for f in sorted(reg["fields"], key=lambda f: -f["lsb"]):
        top = f["lsb"] + f["width"]
        if pos > top:
            parts.append(f"{pos - top}'d0")
        name = f"{reg['name'].lower()}_{f['name'].lower()}"
        src = field_source(reg, f)
        if src == "hw":
            parts.append(f"hw2reg_i.{name}")
        elif src == "flop":
            parts.append(f"{name}_q")
        elif src == "const":
            parts.append(f"{f['width']}'h{f['reset']:x}")
        else:
            parts.append(f"{f['width']}'d0")
        pos = f["lsb"]
    if pos > 0:
        parts.append(f"{pos}'d0")
    return parts[0] if len(parts) == 1 else "{" + ", ".join(parts) + "}"


ZERO = "1'b0"


def _width(w):
    return "" if w == 1 else f"[{w - 1}:0] "


def register_block(banner, enc, blk):
    b = blk["name"]
    B = b.upper()
    regs = blk["registers"]
    out = [f"// {banner}", "//",
           f"// hwprof_{b}_reg: the register block of window '{b}' (regs/{b}.json): address decode, read",
           "// multiplexer, pslverr, the flops of registers the engine does not write, and the write strobes and",
           "// written values of those it holds (hw2reg/reg2hw, hwprof_pkg). docs/registers.md has the rules.",
           "//",
           "// Reset: synchronous, active low; every flop is reset to the description's reset value.",
           "", "`default_nettype none", "",
           f"module hwprof_{b}_reg (",
           "  input  logic                              clk_i,",
           "  input  logic                              rst_ni,",
           "  input  logic                              reg_access_i,  // an APB access phase aimed at this window",
           "  input  logic                              reg_write_i,",
           "  input  logic [hwprof_pkg::APB_ADDR_W-1:0] reg_addr_i,",
           "  input  logic [31:0]                       reg_wdata_i,",
           "  output logic [31:0]                       reg_rdata_o,",
           "  output logic                              reg_error_o,",
           f"  input  hwprof_pkg::{b}_hw2reg_t        hw2reg_i,",
           f"  output hwprof_pkg::{b}_reg2hw_t        reg2hw_o",
           ");", ""]
    arrs = arrays(blk)
    out.append("  // ---- address decode: one select per register" + (" and per array" if arrs else ""))
    for r in regs:
        out.append(f"  logic sel_{r['name'].lower()};")
    for a in arrs:
        out.append(f"  logic sel_{a['name'].lower()};")
    for r in regs:
        out.append(f"  assign sel_{r['name'].lower()} = reg_addr_i == hwprof_pkg::{B}_{r['name']}_ADDR;")
    for a in arrs:
        base = f"hwprof_pkg::{B}_{a['name']}_ADDR"
        out.append(f"  assign sel_{a['name'].lower()} = (reg_addr_i >= {base}) && "
                   f"(reg_addr_i < {base} + 16'd{4 * a['entries']}) && (reg_addr_i[1:0] == 2'b00);")
    hit = " | ".join([f"sel_{r['name'].lower()}" for r in regs] + [f"sel_{a['name'].lower()}" for a in arrs])
    ro = [f"sel_{r['name'].lower()}" for r in regs if not writable(r)] + \
        [f"sel_{a['name'].lower()}" for a in arrs if a["access"] == "ro"]
    refusals = [f"(sel_{r['name'].lower()} & hw2reg_i.{r['name'].lower()}_refuse)" for r in regs
                if r.get("refuse") is not None] + \
        [f"(sel_{a['name'].lower()} & hw2reg_i.{a['name'].lower()}_refuse)" for a in arrs
         if a.get("refuse") is not None]
    out += ["", "  logic reg_hit, reg_ro, reg_refused;",
            f"  assign reg_hit     = {hit};",
            f"  assign reg_ro      = {' | '.join(ro) if ro else ZERO};",
            f"  assign reg_refused = {' | '.join(refusals) if refusals else ZERO};",
            "  assign reg_error_o = reg_access_i && (!reg_hit || (reg_write_i && (reg_ro || reg_refused)));",
            "",
            "  // one write enable per writable register: its select alone implies a hit on a writable",
            "  // register, so the enable does not wait for the OR over every select"]
    for r in regs:
        if not writable(r):
            continue
        rn = r["name"].lower()
        refuse = f" && !hw2reg_i.{rn}_refuse" if r.get("refuse") is not None else ""
        out.append(f"  logic we_{rn};")
        out.append(f"  assign we_{rn} = reg_access_i && reg_write_i && sel_{rn}{refuse};")
    for a in arrs:
        if a["access"] != "rw":
            continue
        an = a["name"].lower()
        refuse = f" && !hw2reg_i.{an}_refuse" if a.get("refuse") is not None else ""
        out.append(f"  logic we_{an};")
        out.append(f"  assign we_{an} = reg_access_i && reg_write_i && sel_{an}{refuse};")
    out.append("")
    # flops
    fl = [(r, f) for r in regs for f in flops(r)]
    if fl:
        out.append("  // ---- the flops of the registers this block holds")
        for r, f in fl:
            n = f"{r['name'].lower()}_{f['name'].lower()}"
            out.append(f"  logic {_width(f['width'])}{n}_q, {n}_d;")
        out.append("")
        out.append("  always_comb begin")
        for r, f in fl:
            n = f"{r['name'].lower()}_{f['name'].lower()}"
            sel = f"sel_{r['name'].lower()}"
            slc = f"reg_wdata_i[{f['lsb'] + f['width'] - 1}:{f['lsb']}]" if f["width"] > 1 else \
                f"reg_wdata_i[{f['lsb']}]"
            if f["access"] == "w1c":
                out.append(f"    // write 1 to clear; a cause set in the clearing cycle stays set")
                out.append(f"    {n}_d = ({n}_q & ~(we_{r['name'].lower()} ? {slc} : '0)) | hw2reg_i.{n}_set;")
            else:
                out.append(f"    {n}_d = we_{r['name'].lower()} ? {slc} : {n}_q;")
        out.append("  end")
        out.append("")
        out.append("  always_ff @(posedge clk_i) begin")
        out.append("    if (!rst_ni) begin")
        for r, f in fl:
            n = f"{r['name'].lower()}_{f['name'].lower()}"
            out.append(f"      {n}_q <= {f['width']}'h{f['reset']:x};")
        out.append("    end else begin")
        for r, f in fl:
            n = f"{r['name'].lower()}_{f['name'].lower()}"
            out.append(f"      {n}_q <= {n}_d;")
        out.append("    end")
        out.append("  end")
        out.append("")
    else:
        out += ["  // this block holds no flops", "  logic unused_clk;", "  assign unused_clk = ^{clk_i, rst_ni};", ""]
    out.append("  // ---- read multiplexer: bits outside the fields and action fields read 0 (a case, so a")
    out.append("  // simulator evaluates only the addressed register)")
    out.append("  logic [31:0] rdata;")
    out.append("  always_comb begin")
    out.append("    rdata = '0;")
    ind = ""
    for i, a in enumerate(arrs):
        out.append(f"    {'if' if i == 0 else 'end else if'} (sel_{a['name'].lower()}) begin  // the entry the engine reads out")
        out.append(f"      rdata = hw2reg_i.{a['name'].lower()}_rdata;")
    if arrs:
        out.append("    end else begin")
        ind = "  "
    out.append(f"{ind}    unique case (reg_addr_i)")
    for r in regs:
        if any(field_source(r, f) != "zero" for f in r["fields"]):
            out.append(f"{ind}      hwprof_pkg::{B}_{r['name']}_ADDR: rdata = {_read_value(blk, r)};")
    out.append(f"{ind}      default: rdata = '0;")
    out.append(f"{ind}    endcase")
    if arrs:
        out.append("    end")
    out.append("  end")
    out.append("  assign reg_rdata_o = (reg_access_i && !reg_write_i && reg_hit) ? rdata : '0;")
    out.append("")
    out.append("  // ---- to the engine")
    members = [(r, m, w, k) for r in regs for m, w, k in reg2hw_fields(r)]
    if not members and not arrs:
        out.append("  assign reg2hw_o.unused = 1'b0;")
    for r, m, w, k in members:
        sel = f"sel_{r['name'].lower()}"
        if k == "qe":
            out.append(f"  assign reg2hw_o.{m} = we_{r['name'].lower()};")
        elif k == "re":
            out.append(f"  assign reg2hw_o.{m} = reg_access_i && !reg_write_i && {sel};")
        elif k == "flop":
            out.append(f"  assign reg2hw_o.{m} = {m}_q;")
        else:
            f = next(f for f in r["fields"] if f"{r['name'].lower()}_{f['name'].lower()}" == m)
            slc = f"[{f['lsb'] + f['width'] - 1}:{f['lsb']}]" if f["width"] > 1 else f"[{f['lsb']}]"
            out.append(f"  assign reg2hw_o.{m} = reg_wdata_i{slc};")
    for a in arrs:
        an = a["name"].lower()
        for m, w, k in array_reg2hw(a):
            if k == "index":
                out.append(f"  assign reg2hw_o.{m} = {w}'((reg_addr_i - hwprof_pkg::{B}_{a['name']}_ADDR) >> 2);")
            elif k == "we":
                out.append(f"  assign reg2hw_o.{m} = we_{an};")
            elif k == "awdata":
                out.append(f"  assign reg2hw_o.{m} = reg_wdata_i;")
            else:
                out.append(f"  assign reg2hw_o.{m} = reg_access_i && !reg_write_i && sel_{an};")
    out.append("")
    out.append("  // write-data bits outside every writable field are ignored")
    out.append("  logic unused_wdata;")
    out.append("  assign unused_wdata = ^reg_wdata_i;")
    if not block_hw2reg(blk):
        out.append("  logic unused_hw2reg;")
        out.append("  assign unused_hw2reg = ^hw2reg_i;")
    out.append("")
    out.append("endmodule")
    out.append("")
    out.append("`default_nettype wire")
    return "\n".join(out) + "\n"


def config_check(banner, enc):
    """hwprof_param_check: elaboration errors for build parameters outside their allowed values."""
    cfg = enc.get("config", [])
    out = [f"// {banner}", "//",
           "// hwprof_param_check: stops elaboration when a build parameter of hwprof_top is outside the values",
           "// regs/encodings.json allows (the same rule the C model's cfg_check applies). No ports, no logic.",
           "", "`default_nettype none", "", "module hwprof_param_check #("]
    params = [f"  parameter int unsigned {c['name']} = hwprof_pkg::{c['c']}_DEFAULT" for c in cfg]
    out.append(",\n".join(params))
    out += [");", ""]
    for c in cfg:
        n = c["name"]
        if "values" in c:
            bad = " && ".join(f"({n} != {v})" for v in c["values"])
        else:
            bad = f"({n} < {c['min']}) || ({n} > {c['max']})"
            if c.get("pow2", False):
                bad += f" || (({n} & ({n} - 1)) != 0)"
        out += [f"  if ({bad}) begin : g_{n.lower()}_check",
                f"    $error(\"{n} must be {config_rule(c)} (regs/encodings.json)\");", "  end"]
    out += ["", "endmodule", "", "`default_nettype wire"]
    return "\n".join(out) + "\n"
