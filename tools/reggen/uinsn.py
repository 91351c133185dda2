"""The co-processor's microinstruction format (regs/cop_uinsn.json): validation and the four outputs.

Description keys:
  width                 bits of one microinstruction
  fields[]              name, lsb, width, desc, and what the field holds: "enum": <enum name> (a code),
                        "regfile": <register file name> (a register number), or neither (a plain number)
  regfiles[]            name (one letter, the assembler's prefix), count, desc
  enums[]               name, width, desc, optional "reserved" (what the unlisted codes do); values[]:
                        name, value, desc, and "asm" (the assembler's mnemonic or operand name; "" or
                        missing: not written in assembly) or, for targets, "offset" (a branch offset)

Every code not listed is reserved; the description says what reserved codes do, the assembler never
emits them and the disassembler shows them as `.word`.
"""

from .desc import DescError, check_ident, need, opt


def validate(d, path):
    width = need(d, "width", int, path)
    if not 1 <= width <= 64:
        raise DescError(f"{path}: width must be 1..64")
    enums = {}
    for e in need(d, "enums", list, path):
        where = f"{path}: enum {e.get('name', '?') if isinstance(e, dict) else '?'}"
        check_ident(need(e, "name", str, where), where)
        need(e, "desc", str, where)
        opt(e, "reserved", str, "", where)
        ew = need(e, "width", int, where)
        if not 1 <= ew <= width:
            raise DescError(f"{where}: width must be 1..{width} (the microinstruction's)")
        seen_v, seen_n, seen_a = set(), set(), set()
        for v in need(e, "values", list, where):
            vw = f"{where}.{v.get('name', '?') if isinstance(v, dict) else '?'}"
            check_ident(need(v, "name", str, vw), vw)
            need(v, "desc", str, vw)
            val = need(v, "value", int, vw)
            if not 0 <= val < (1 << ew):
                raise DescError(f"{vw}: value {val} does not fit in {ew} bits")
            if val in seen_v or v["name"] in seen_n:
                raise DescError(f"{vw}: value or name used twice")
            seen_v.add(val)
            seen_n.add(v["name"])
            a = opt(v, "asm", str, "", vw)
            if a and a in seen_a:
                raise DescError(f"{vw}: assembler name '{a}' used twice")
            seen_a.add(a)
            opt(v, "offset", int, 0, vw)
        if e["name"] in enums:
            raise DescError(f"{where}: duplicate enum")
        enums[e["name"]] = e
        if len(seen_v) < (1 << ew) and not e.get("reserved"):
            raise DescError(f"{where}: codes are unlisted; say what they do ('reserved')")
    regfiles = {}
    for r in need(d, "regfiles", list, path):
        where = f"{path}: regfile {r.get('name', '?') if isinstance(r, dict) else '?'}"
        name = need(r, "name", str, where)
        if len(name) != 1 or not name.isalpha():
            raise DescError(f"{where}: a register file's name is one letter")
        need(r, "count", int, where)
        need(r, "desc", str, where)
        regfiles[name] = r
    used = 0
    names = set()
    for f in need(d, "fields", list, path):
        where = f"{path}: field {f.get('name', '?') if isinstance(f, dict) else '?'}"
        check_ident(need(f, "name", str, where), where)
        need(f, "desc", str, where)
        lsb, fw = need(f, "lsb", int, where), need(f, "width", int, where)
        if fw < 1 or lsb < 0 or lsb + fw > width:
            raise DescError(f"{where}: bits {lsb}+{fw} outside the {width}-bit word")
        mask = ((1 << fw) - 1) << lsb
        if used & mask:
            raise DescError(f"{where}: overlaps another field")
        used |= mask
        if f["name"] in names:
            raise DescError(f"{where}: duplicate field")
        names.add(f["name"])
        if "enum" in f:
            e = enums.get(need(f, "enum", str, where))
            if e is None:
                raise DescError(f"{where}: unknown enum '{f['enum']}'")
            if e["width"] != fw:
                raise DescError(f"{where}: enum '{f['enum']}' is {e['width']} bits, the field {fw}")
        if "regfile" in f:
            r = regfiles.get(need(f, "regfile", str, where))
            if r is None:
                raise DescError(f"{where}: unknown register file '{f['regfile']}'")
            if r["count"] > (1 << fw):
                raise DescError(f"{where}: {r['count']} registers do not fit {fw} bits")
    return d


def _values(e):
    return sorted(e["values"], key=lambda v: v["value"])


def emit_sv(banner, d):
    w = d["width"]
    out = [f"// {banner}", "//",
           "// hwprof_cop_pkg: the value-profiling co-processor's microinstruction format (regs/cop_uinsn.json):",
           "// field positions, the codes of each field, the register-file sizes. docs/cop.md has the behaviour.",
           "", "`default_nettype none", "", "package hwprof_cop_pkg;", "",
           f"  localparam int unsigned UINSN_W = {w};",
           f"  typedef logic [{w - 1}:0] uinsn_t;", ""]
    for r in d["regfiles"]:
        out.append(f"  localparam int unsigned NUM_{r['name'].upper()}REGS = {r['count']};  // {r['desc']}")
    out.append("")
    for f in d["fields"]:
        out.append(f"  localparam int unsigned UI_{f['name']}_LSB = {f['lsb']};")
        out.append(f"  localparam int unsigned UI_{f['name']}_W = {f['width']};  // {f['desc']}")
    out.append("")
    for e in d["enums"]:
        out.append(f"  // {e['desc']}" + (f"; {e['reserved']}" if e.get("reserved") else ""))
        out.append(f"  typedef enum logic [{e['width'] - 1}:0] {{")
        vals = _values(e)
        for i, v in enumerate(vals):
            sep = "," if i + 1 < len(vals) else ""
            out.append(f"    {e['name'].upper()}_{v['name']} = {e['width']}'d{v['value']}{sep}  // {v['desc']}")
        out.append(f"  }} {e['name']}_e;")
        out.append("")
    tgt = {e["name"]: e for e in d["enums"]}.get("target")
    if tgt:
        offs = [v for v in _values(tgt) if "offset" in v]
        # Yosys 0.23: numeric labels (no enum constants inside a package function), no `return`,
        # no negated sized literal
        out.append("  // the short branch offsets of the target codes that have one")
        out.append(f"  function automatic logic signed [7:0] target_offset(input logic [{tgt['width'] - 1}:0] t);")
        out.append("    case (t)")
        for v in offs:
            lit = f"8'sh{v['offset'] & 0xff:02x}"
            out.append(f"      {tgt['width']}'d{v['value']}: target_offset = {lit};  // {v['name']}")
        out.append("      default: target_offset = 8'sh00;")
        out.append("    endcase")
        out.append("  endfunction")
        out.append("")
    out.append("endpackage")
    out.append("")
    return "\n".join(out)


def emit_h(banner, d):
    w = d["width"]
    out = [f"/* {banner} */", "",
           "/* The value-profiling co-processor's microinstruction format (regs/cop_uinsn.json): field",
           " * positions, codes, register-file sizes, and the name tables of sw/host/cop/autogen/cop_isa_tables.c used by the",
           " * assembler, the disassembler and the interpreter. docs/cop.md specifies the behaviour. */",
           "#ifndef HWPROF_COP_ISA_H", "#define HWPROF_COP_ISA_H", "", "#include <stdint.h>", "",
           f"#define HWPROF_COP_UINSN_W {w}u", ""]
    for r in d["regfiles"]:
        out.append(f"#define HWPROF_COP_NUM_{r['name'].upper()}REGS {r['count']}u /* {r['desc']} */")
    out.append("")
    for f in d["fields"]:
        out.append(f"#define HWPROF_COP_UI_{f['name']}_LSB {f['lsb']}u")
        out.append(f"#define HWPROF_COP_UI_{f['name']}_W {f['width']}u /* {f['desc']} */")
    out.append("")
    out.append("/* one field of a microinstruction word, and a word with one field replaced */")
    out.append("#define HWPROF_COP_UI_GET(word, F) \\")
    out.append("  ((uint32_t)(((word) >> HWPROF_COP_UI_##F##_LSB) & ((1ull << HWPROF_COP_UI_##F##_W) - 1u)))")
    out.append("#define HWPROF_COP_UI_SET(word, F, v) \\")
    out.append("  (((word) & ~(((1ull << HWPROF_COP_UI_##F##_W) - 1u) << HWPROF_COP_UI_##F##_LSB)) | \\")
    out.append("   (((uint64_t)(v) & ((1ull << HWPROF_COP_UI_##F##_W) - 1u)) << HWPROF_COP_UI_##F##_LSB))")
    out.append("")
    for e in d["enums"]:
        E = e["name"].upper()
        out.append(f"/* {e['desc']}" + (f"; {e['reserved']}" if e.get("reserved") else "") + " */")
        out.append(f"enum hwprof_cop_{e['name']} {{")
        for v in _values(e):
            out.append(f"  HWPROF_COP_{E}_{v['name']} = {v['value']}, /* {v['desc']} */")
        out.append("};")
        out.append(f"#define HWPROF_COP_{E}_CODES {1 << e['width']}u")
        out.append("")
    out.append("/* Name tables (sw/host/cop/autogen/cop_isa_tables.c), indexed by code: the assembler's name (NULL for a reserved")
    out.append(" * code or one not written in assembly) and, for targets, the branch offset (0 without one). */")
    for e in d["enums"]:
        out.append(f"extern const char *const hwprof_cop_{e['name']}_asm[{1 << e['width']}];")
        out.append(f"extern const char *const hwprof_cop_{e['name']}_name[{1 << e['width']}];")
    if any(e["name"] == "target" for e in d["enums"]):
        t = [e for e in d["enums"] if e["name"] == "target"][0]
        out.append(f"extern const int8_t hwprof_cop_target_offset[{1 << t['width']}];")
        out.append(f"extern const uint8_t hwprof_cop_target_has_offset[{1 << t['width']}];")
    t = {e["name"]: e for e in d["enums"]}.get("target")
    if t:
        offs = [v for v in _values(t) if "offset" in v]
        out.append("")
        out.append("/* the short offset of a target code (header-only: the C model needs no table) */")
        out.append("static inline int hwprof_cop_target_has_offset_of(unsigned code) {")
        out.append("  switch (code) {")
        for v in offs:
            out.append(f"    case HWPROF_COP_TARGET_{v['name']}:")
        out.append("      return 1;")
        out.append("    default:")
        out.append("      return 0;")
        out.append("  }")
        out.append("}")
        out.append("static inline int hwprof_cop_target_offset_of(unsigned code) {")
        out.append("  switch (code) {")
        for v in offs:
            out.append(f"    case HWPROF_COP_TARGET_{v['name']}: return {v['offset']};")
        out.append("    default: return 0;")
        out.append("  }")
        out.append("}")
    out.append("")
    out.append("#endif")
    out.append("")
    return "\n".join(out)


def _cstr(s):
    return "NULL" if s is None else '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def emit_tables_c(banner, d):
    out = [f"/* {banner} */", "", "/* Name tables of the co-processor's microinstruction codes (sw/include/autogen/hwprof_cop_isa.h). */",
           "#include <stddef.h>", "", "#include \"autogen/hwprof_cop_isa.h\"", ""]
    for e in d["enums"]:
        n = 1 << e["width"]
        by = {v["value"]: v for v in e["values"]}
        asm = [_cstr(by[i].get("asm") or None) if i in by else "NULL" for i in range(n)]
        name = [_cstr(by[i]["name"]) if i in by else "NULL" for i in range(n)]
        out.append(f"const char *const hwprof_cop_{e['name']}_asm[{n}] = {{{', '.join(asm)}}};")
        out.append(f"const char *const hwprof_cop_{e['name']}_name[{n}] = {{{', '.join(name)}}};")
        if e["name"] == "target":
            offs = [str(by[i].get("offset", 0)) if i in by else "0" for i in range(n)]
            has = ["1" if i in by and "offset" in by[i] else "0" for i in range(n)]
            out.append(f"const int8_t hwprof_cop_target_offset[{n}] = {{{', '.join(offs)}}};")
            out.append(f"const uint8_t hwprof_cop_target_has_offset[{n}] = {{{', '.join(has)}}};")
    out.append("")
    return "\n".join(out)


def emit_md(banner, d):
    out = [f"<!-- {banner} -->", "", "# Co-processor microinstruction format", "",
           f"One microinstruction is {d['width']} bits; [cop.md](cop.md) specifies what each operation does and "
           "when. Generated from `regs/cop_uinsn.json`, like the RTL package `rtl/cop/autogen/hwprof_cop_pkg.sv`, the C header "
           "`sw/include/autogen/hwprof_cop_isa.h` and the assembler's tables.", "",
           "| bits | field | holds | description |", "|---|---|---|---|"]
    for f in sorted(d["fields"], key=lambda f: -f["lsb"]):
        hi = f["lsb"] + f["width"] - 1
        bits = f"{hi}:{f['lsb']}" if f["width"] > 1 else str(f["lsb"])
        holds = f"code ({f['enum']})" if "enum" in f else (f"register {f['regfile']}0..{f['regfile']}"
                                                          f"{[r for r in d['regfiles'] if r['name'] == f['regfile']][0]['count'] - 1}"
                                                          if "regfile" in f else "number")
        out.append(f"| {bits} | {f['name']} | {holds} | {f['desc']} |")
    out += ["", "## Register files", "", "| name | registers | description |", "|---|---|---|"]
    for r in d["regfiles"]:
        out.append(f"| {r['name']} | {r['name']}0..{r['name']}{r['count'] - 1} | {r['desc']} |")
    for e in d["enums"]:
        out += ["", f"## Codes: {e['name']}", "", e["desc"] + ".", ""]
        extra = " offset |" if e["name"] == "target" else ""
        out.append("| code | name | assembly |" + extra + " meaning |")
        out.append("|---|---|---|" + ("---|" if extra else "") + "---|")
        for v in _values(e):
            asm = f"`{v['asm']}`" if v.get("asm") else "-"
            off = (f" {v['offset']:+d} |" if "offset" in v else " - |") if extra else ""
            out.append(f"| {v['value']} | {v['name']} | {asm} |{off} {v['desc']} |")
        if e.get("reserved"):
            out += ["", f"Codes not listed are reserved: {e['reserved']}; the assembler never emits them."]
    out.append("")
    return "\n".join(out)


def generate(banner, d):
    return {
        "rtl/cop/autogen/hwprof_cop_pkg.sv": emit_sv(banner, d),
        "sw/include/autogen/hwprof_cop_isa.h": emit_h(banner, d),
        "sw/host/cop/autogen/cop_isa_tables.c": emit_tables_c(banner, d),
        "docs/cop_isa.md": emit_md(banner, d),
    }
