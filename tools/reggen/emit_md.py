"""The register table of docs/registers.md."""

from .desc import array_addr, arrays, config_rule, param, reg_addr


def document(banner, enc, blocks):
    shift = param(enc, "WINDOW_SHIFT")
    aw = param(enc, "APB_ADDR_W")
    out = [f"<!-- {banner} -->", "", "# Register map", ""]
    out.append(f"APB3, 32-bit data, {aw}-bit byte addresses, zero wait states. `paddr[{aw - 1}:{shift}]` selects an "
               "engine window; each window is decoded by its generated register block "
               "(`rtl/<window>/autogen/hwprof_<window>_reg.sv`, modelled by `cmodel/<window>/autogen/<window>_reg.c`).")
    out.append("")
    out.append("The access rules, the same in every window:")
    out.append("")
    out.append("- An access to an address no register of the map names answers `pslverr` and changes nothing.")
    out.append("- A write to a register with no writable field (every field RO) answers `pslverr` and changes "
               "nothing.")
    out.append("- A write the engine refuses (the register's *refused while* condition below holds) answers "
               "`pslverr` and changes nothing.")
    out.append("- Bits outside the listed fields read as zero and ignore writes.")
    out.append("")
    out.append("Access: RW read/write, RO read-only, W1C read, write 1 to clear, WA write 1 to start an action "
               "(reads 0). Storage: *block* = a flop of the register block, reset as listed; *engine* = the "
               "engine holds the value and may change it itself; *const* = a constant.")
    out.append("")
    for blk in blocks:
        if blk["windows"] > 1:
            out.append(f"## Windows `{blk['name']}` (base 0x{blk['window'] << shift:04x}, {blk['windows']} windows)")
        else:
            out.append(f"## Window `{blk['name']}` (base 0x{blk['window'] << shift:04x})")
        out.append("")
        out.append(blk["desc"])
        out.append("")
        out.append("| address | register | bits | field | access | storage | reset | description |")
        out.append("|---|---|---|---|---|---|---|---|")
        for r in blk["registers"]:
            first = True
            for f in r["fields"]:
                hi = f["lsb"] + f["width"] - 1
                bits = f"{hi}:{f['lsb']}" if f["width"] > 1 else f"{f['lsb']}"
                addr = f"0x{reg_addr(enc, blk, r):04x}" if first else ""
                rname = f"`{r['name']}`" if first else ""
                if f["access"] == "wa":
                    storage = "-"
                elif r.get("hwext", False):
                    storage = "engine"
                elif f["access"] == "ro":
                    storage = "const"
                else:
                    storage = "block"
                desc = f["desc"]
                if first and r.get("refuse") is not None:
                    desc += f" (writes refused while {r['refuse']})"
                if first and r.get("read_pulse", False):
                    desc += " (a read is seen by the engine)"
                out.append(f"| {addr} | {rname} | {bits} | {f['name']} | {f['access'].upper()} | {storage} | "
                           f"0x{f['reset']:x} | {desc} |")
                first = False
        out.append("")
        if arrays(blk):
            out.append("Arrays (windows onto storage the engine holds; one 32-bit entry per word, entry i at "
                       "base + 4 i; the engine returns the addressed entry in the same cycle):")
            out.append("")
            out.append("| base | array | entries | access | description |")
            out.append("|---|---|---|---|---|")
            for a in arrays(blk):
                desc = a["desc"]
                if a.get("refuse") is not None:
                    desc += f" (writes refused while {a['refuse']})"
                if a.get("read_pulse", False):
                    desc += " (a read is seen by the engine)"
                out.append(f"| 0x{array_addr(enc, blk, a):04x} | `{a['name']}` | {a['entries']} | {a['access'].upper()} | "
                           f"{desc} |")
            out.append("")
    out.append("## Build parameters of `hwprof_top`")
    out.append("")
    out.append("Read back by software from `CFG_EDGE`, `CFG_CACHE` and `CFG_TRACE`. The RTL's parameter defaults, the C "
               "model's `*_cfg_default()`/`*_cfg_check()`, the benches and `hwprof.core` take them from here.")
    out.append("")
    out.append("| parameter | default | allowed | meaning |")
    out.append("|---|---|---|---|")
    for c in enc.get("config", []):
        out.append(f"| `{c['name']}` | {c['default']} | {config_rule(c)} | {c['desc']} |")
    out.append("")
    out.append("## Widths, the platform's memory map and the profiling extension")
    out.append("")
    out.append("| name | value | meaning |")
    out.append("|---|---|---|")
    for p in enc["params"]:
        v = f"0x{p['value']:08x}" if p["value"] > 0xffff else f"{p['value']}"
        out.append(f"| `{p['name']}` | {v} | {p['desc']} |")
    out.append("")
    out.append("## Encodings on the retire-event port")
    out.append("")
    for e in enc["enums"]:
        out.append(f"**{e['name']}** ({e['width']} bits): {e['desc']}")
        out.append("")
        out.append("| value | name | meaning |")
        out.append("|---|---|---|")
        for v in e["values"]:
            out.append(f"| {v['value']} | `{v['name']}` | {v['desc']} |")
        out.append("")
    return "\n".join(out)
