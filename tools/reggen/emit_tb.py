"""The bench glue of the generator's conformance test (tb/regs/tb_reg_conformance.cpp): for one block,
how to fill the engine's values (hw2reg) at random, drive them into the RTL block's flattened
packed-struct port and the C block alike, and compare every reg2hw member of the RTL block with
the C block's state (stored values) or strobes (everything else). Member positions follow the
packed structs of emit_sv (the first member is the most significant)."""

from .desc import array_reg2hw, arrays, block_hw2reg, block_reg2hw, reg2hw_fields


def _positions(members):
    """{name: (lsb, width)} of a packed struct's members, the first at the top."""
    total = sum(w for _, w, *_ in members)
    pos = {}
    top = total
    for m in members:
        name, w = m[0], m[1]
        top -= w
        pos[name] = (top, w)
    return pos


def glue(banner, enc, blk):
    b = blk["name"]
    p = f"hwprof_{b}"
    hw = block_hw2reg(blk)
    r2h = block_reg2hw(blk)
    hpos = _positions(hw)
    rpos = _positions(r2h)
    out = [f"// {banner}", f"// Conformance glue of block '{b}' for tb/regs/tb_reg_conformance.cpp.", "#pragma once", "",
           f"namespace {b}_glue {{", ""]
    # randomize
    out.append(f"inline void randomize(lockstep::Rng& rng, const hwprof_reg_req_t& req, {p}_hw2reg_t* hw) {{")
    out.append("  (void)req;")
    for m, w in hw:
        mask = (1 << w) - 1
        if m.endswith("_refuse"):
            out.append(f"  hw->{m} = rng.chance(30);")
        elif m.endswith("_set"):
            out.append(f"  hw->{m} = rng.chance(10) ? static_cast<uint32_t>(rng.next()) & 0x{mask:x}u : 0u;"
                       if w > 1 else f"  hw->{m} = rng.chance(10);")
        elif w == 1:
            out.append(f"  hw->{m} = rng.chance(50);")
        else:
            out.append(f"  hw->{m} = static_cast<uint32_t>(rng.next()) & 0x{mask:x}u;")
    out += ["}", ""]
    # drive
    out.append("template <typename V>")
    out.append(f"void drive(const {p}_hw2reg_t& hw, V* rtl) {{")
    for m, w in hw:
        lsb, _ = hpos[m]
        out.append(f"  set_bits(rtl->hw2reg_i, {lsb}, {w}, static_cast<uint32_t>(hw.{m}));")
    out += ["}", ""]
    # compare
    qe_of = {}
    for r in blk["registers"]:
        for m, w, k in reg2hw_fields(r):
            if k == "wdata":
                qe_of[m] = f"{r['name'].lower()}_qe"
    we_of = {}
    for a in arrays(blk):
        for m, w, k in array_reg2hw(a):
            if k == "awdata":
                we_of[m] = f"{a['name'].lower()}_we"
    out.append("template <typename V>")
    out.append(f"void compare(lockstep::Checker& chk, const hwprof_reg_req_t& req, const {p}_reg_state_t& s,")
    out.append(f"             const {p}_reg2hw_t& r2h, V* rtl) {{")
    out.append("  (void)req;")
    for m, w, k in r2h:
        lsb, _ = rpos[m]
        got = f"get_bits(rtl->reg2hw_o, {lsb}, {w})"
        if k == "flop":
            out.append(f"  chk.eq(\"reg2hw.{m} (stored)\", s.{m}, {got});")
        elif k == "wdata":
            out.append(f"  if (r2h.{qe_of[m]}) chk.eq(\"reg2hw.{m}\", r2h.{m}, {got});")
        elif k == "awdata":
            out.append(f"  if (r2h.{we_of[m]}) chk.eq(\"reg2hw.{m}\", r2h.{m}, {got});")
        else:
            out.append(f"  chk.eq(\"reg2hw.{m}\", r2h.{m}, {got});")
    out += ["}", ""]
    flop = next((m for m, w, k in r2h if k == "flop"), None)
    out.append(f"inline void inject({p}_reg_state_t* s) {{")
    out.append(f"  s->{flop} ^= 1u;" if flop else "  (void)s;")
    out += ["}", "", f"}}  // namespace {b}_glue", ""]
    return "\n".join(out)
