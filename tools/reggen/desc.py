"""Loading and validating the regs/*.json descriptions.

A block description names its window and its registers; each register has fields. What a field
does on the bus is its access kind; where its value lives is the register's storage:

  access  rw   read/write
          ro   read-only
          w1c  read; writing 1 clears the bit (hardware sets it)
          wa   write-action: the written bits reach the block with the register's write strobe; reads 0

  storage (register key "hwext")
          false (default)  the generated register block holds the flops: rw and w1c fields are
                           flops with the description's reset value, ro fields are constants
          true             the engine holds the value (hardware writes it too): the register block
                           reads it from hw2reg and hands writes to the engine as a strobe (qe) and
                           the written field values

  "refuse": "<when>"       the engine may refuse a write (hw2reg <reg>_refuse): pslverr, nothing
                           changes; the text says when, for the documentation
  "read_pulse": true       the engine sees a read of this register (reg2hw <reg>_re), for registers
                           whose read has a side effect (a FIFO pop)

A block normally takes one window of 256 bytes; "windows": N (1..64) gives it N consecutive windows
(window .. window + N - 1), so offsets run up to 256 N: for engines with large arrays.

A block may also list "arrays": windows onto storage the engine holds (a table, a microcode memory).
An array takes the words [offset, offset + 4 * entries) of the block (1..1024 entries, inside its
windows, overlapping no register and no other array); each word is one entry of 32 bits.

  access  rw   software reads and writes entries; ro   software reads them (a write answers pslverr)
  reg2hw  <a>_index   the entry the address names ((addr - offset) / 4), driven from the address
          <a>_we      write strobe of an accepted write (rw); <a>_wdata the written word (rw)
          <a>_re      read strobe ("read_pulse": true)
  hw2reg  <a>_rdata   the entry <a>_index names, in the same cycle (the engine's array is read
                      combinationally: the bus has no wait states)
          <a>_refuse  with "refuse": the engine refuses a write (pslverr, nothing changes)
"""

import json

ACCESS = ("rw", "ro", "w1c", "wa")
RESERVED_FIELD_NAMES = ("QE", "RE", "REFUSE", "SET")


class DescError(Exception):
    pass


def load(path, shown=None):
    shown = shown or path
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except OSError as e:
        raise DescError(f"{shown}: cannot read: {e.strerror}")
    except json.JSONDecodeError as e:
        raise DescError(f"{shown}:{e.lineno}:{e.colno}: malformed JSON: {e.msg}")
    except UnicodeDecodeError as e:
        raise DescError(f"{shown}: byte {e.start}: not UTF-8 text")


def need(obj, key, kind, where):
    if not isinstance(obj, dict):
        raise DescError(f"{where}: must be an object")
    if key not in obj:
        raise DescError(f"{where}: missing '{key}'")
    if not isinstance(obj[key], kind) or (kind is int and isinstance(obj[key], bool)):
        raise DescError(f"{where}: '{key}' must be {kind.__name__}")
    return obj[key]


def opt(obj, key, kind, default, where):
    if key not in obj:
        return default
    return need(obj, key, kind, where)


def check_ident(name, where):
    if not name or not name.replace("_", "").isalnum() or not name[0].isalpha() or not name.isascii():
        raise DescError(f"{where}: '{name}' is not a valid identifier")


def validate_encodings(enc, path):
    params = need(enc, "params", list, path)
    enums = need(enc, "enums", list, path)
    seen = set()
    for p in params:
        where = f"{path}: param {p.get('name', '?') if isinstance(p, dict) else '?'}"
        check_ident(need(p, "name", str, where), where)
        if not 0 <= need(p, "value", int, where) < (1 << 32):
            raise DescError(f"{where}: value must fit 32 bits unsigned")
        need(p, "desc", str, where)
        if p["name"] in seen:
            raise DescError(f"{where}: duplicate name")
        seen.add(p["name"])
    for e in enums:
        where = f"{path}: enum {e.get('name', '?') if isinstance(e, dict) else '?'}"
        check_ident(need(e, "name", str, where), where)
        need(e, "desc", str, where)
        width = need(e, "width", int, where)
        if not 1 <= width <= 32:
            raise DescError(f"{where}: width must be 1..32")
        vals = set()
        for v in need(e, "values", list, where):
            vw = f"{where}.{v.get('name', '?') if isinstance(v, dict) else '?'}"
            check_ident(need(v, "name", str, vw), vw)
            need(v, "desc", str, vw)
            value = need(v, "value", int, vw)
            if not 0 <= value < (1 << width):
                raise DescError(f"{vw}: value {value} does not fit in {width} bits")
            if value in vals:
                raise DescError(f"{vw}: value {value} used twice")
            vals.add(value)
    names = set()
    for c in opt(enc, "config", list, [], path):
        where = f"{path}: config {c.get('name', '?') if isinstance(c, dict) else '?'}"
        check_ident(need(c, "name", str, where), where)
        check_ident(need(c, "c", str, where), where)
        need(c, "desc", str, where)
        d = need(c, "default", int, where)
        if c["name"] in names:
            raise DescError(f"{where}: duplicate name")
        names.add(c["name"])
        if "values" in c:
            vals = need(c, "values", list, where)
            if not vals or not all(isinstance(v, int) and not isinstance(v, bool) for v in vals):
                raise DescError(f"{where}: 'values' must list integers")
            c["min"], c["max"] = min(vals), max(vals)
        else:
            need(c, "min", int, where)
            need(c, "max", int, where)
        if not c["min"] <= d <= c["max"] or not config_allows(c, d):
            raise DescError(f"{where}: default {d} is outside its allowed values")
    # the register address: the engine window above WINDOW_SHIFT, the byte offset of 32-bit words
    # below it; each must have at least one bit, and an address fits the 32-bit bus (the generator
    # shifts by these: an unbounded shift made it build integers until memory ran out)
    aw, shift = param(enc, "APB_ADDR_W"), param(enc, "WINDOW_SHIFT")
    if not 3 <= aw <= 32:
        raise DescError(f"{path}: param APB_ADDR_W: {aw} must be 3..32")
    if not 2 <= shift <= aw - 1:
        raise DescError(f"{path}: param WINDOW_SHIFT: {shift} must be 2..APB_ADDR_W - 1 ({aw - 1})")
    return enc


def validate_block(blk, path, windows):
    name = need(blk, "name", str, path)
    check_ident(name, path)
    need(blk, "desc", str, path)
    window = need(blk, "window", int, path)
    nwin = opt(blk, "windows", int, 1, path)
    if not 1 <= nwin <= 64:
        raise DescError(f"{path}: 'windows' must be 1..64")
    blk["windows"] = nwin
    for w in range(window, window + nwin):
        if w in windows:
            raise DescError(f"{path}: window {w} already used by block '{windows[w][0]}' ({windows[w][1]})")
        windows[w] = (name, path)
    span = 256 * nwin
    offsets = {}
    names = set()
    regs = need(blk, "registers", list, path)
    if not regs:
        raise DescError(f"{path}: no registers")
    for r in regs:
        where = f"{path}: register {r.get('name', '?') if isinstance(r, dict) else '?'}"
        check_ident(need(r, "name", str, where), where)
        need(r, "desc", str, where)
        if r["name"] in names:
            raise DescError(f"{where}: duplicate register name")
        names.add(r["name"])
        off = need(r, "offset", int, where)
        if off % 4 or not 0 <= off < span:
            raise DescError(f"{where}: offset {off} must be word aligned and below {span}")
        if off in offsets:
            raise DescError(f"{where}: offset {off} already used by {offsets[off]}")
        offsets[off] = r["name"]
        hwext = opt(r, "hwext", bool, False, where)
        refuse = opt(r, "refuse", str, None, where)
        opt(r, "read_pulse", bool, False, where)
        used = 0
        fnames = set()
        fields = need(r, "fields", list, where)
        if not fields:
            raise DescError(f"{where}: no fields")
        for fld in fields:
            fw = f"{where}.{fld.get('name', '?') if isinstance(fld, dict) else '?'}"
            check_ident(need(fld, "name", str, fw), fw)
            need(fld, "desc", str, fw)
            if fld["name"] in RESERVED_FIELD_NAMES:
                raise DescError(f"{fw}: field name {fld['name']} is reserved for the register block's strobes")
            if fld["name"] in fnames:
                raise DescError(f"{fw}: duplicate field name")
            fnames.add(fld["name"])
            lsb = need(fld, "lsb", int, fw)
            width = need(fld, "width", int, fw)
            if width < 1 or lsb < 0 or lsb + width > 32:
                raise DescError(f"{fw}: bits [{lsb + width - 1}:{lsb}] do not fit a 32-bit register")
            mask = ((1 << width) - 1) << lsb
            if used & mask:
                raise DescError(f"{fw}: overlaps another field")
            used |= mask
            acc = need(fld, "access", str, fw)
            if acc not in ACCESS:
                raise DescError(f"{fw}: access must be one of {ACCESS}")
            if acc == "w1c" and hwext:
                raise DescError(f"{fw}: a w1c field lives in the register block (hwext must be false)")
            if not 0 <= need(fld, "reset", int, fw) < (1 << width):
                raise DescError(f"{fw}: reset value does not fit in {width} bits")
        if refuse is not None and not writable(r):
            raise DescError(f"{where}: 'refuse' on a register with no writable field")
    for a in opt(blk, "arrays", list, [], path):
        where = f"{path}: array {a.get('name', '?') if isinstance(a, dict) else '?'}"
        check_ident(need(a, "name", str, where), where)
        need(a, "desc", str, where)
        if a["name"] in names:
            raise DescError(f"{where}: duplicate name (a register or array is called so)")
        names.add(a["name"])
        off = need(a, "offset", int, where)
        n = need(a, "entries", int, where)
        if off % 4 or not 1 <= n <= 1024 or off < 0 or off + 4 * n > span:
            raise DescError(f"{where}: entries 1..1024 of 4 bytes from a word-aligned offset must fit the block's {span} bytes")
        for o in range(off, off + 4 * n, 4):
            if o in offsets:
                raise DescError(f"{where}: word {o} already used by {offsets[o]}")
            offsets[o] = a["name"]
        if need(a, "access", str, where) not in ("rw", "ro"):
            raise DescError(f"{where}: access must be rw or ro")
        refuse = opt(a, "refuse", str, None, where)
        opt(a, "read_pulse", bool, False, where)
        if refuse is not None and a["access"] == "ro":
            raise DescError(f"{where}: 'refuse' on a read-only array")
    return blk


def param(enc, name):
    for p in enc["params"]:
        if p["name"] == name:
            return p["value"]
    raise DescError(f"regs/encodings.json: required param {name} is missing")


# ---- derived facts, shared by the emitters


def config_allows(c, v):
    """Whether a build parameter may take the value v."""
    if "values" in c:
        return v in c["values"]
    if not c["min"] <= v <= c["max"]:
        return False
    return not c.get("pow2", False) or (v & (v - 1)) == 0


def config_rule(c):
    """The allowed values of a build parameter, in words."""
    if "values" in c:
        return ", ".join(str(v) for v in c["values"])
    rule = f"{c['min']}..{c['max']}"
    return rule + (", a power of two" if c.get("pow2", False) else "")


def writable(reg):
    return any(f["access"] != "ro" for f in reg["fields"])


def reg_masks(reg):
    wmask = rmask = reset = 0
    for f in reg["fields"]:
        m = ((1 << f["width"]) - 1) << f["lsb"]
        if f["access"] != "wa":
            rmask |= m
        if f["access"] != "ro":
            wmask |= m
        reset |= f["reset"] << f["lsb"]
    return wmask, rmask, reset


def reg_addr(enc, blk, reg):
    return (blk["window"] << param(enc, "WINDOW_SHIFT")) + reg["offset"]


def field_source(reg, fld):
    """Where a field's read value comes from: 'hw' (hw2reg), 'flop', 'const' or 'zero' (wa)."""
    if fld["access"] == "wa":
        return "zero"
    if reg.get("hwext", False):
        return "hw"
    return "const" if fld["access"] == "ro" else "flop"


def has_qe(reg):
    """The engine sees this register's write strobe: it holds the value, or a field is an action."""
    return writable(reg) and (reg.get("hwext", False) or any(f["access"] == "wa" for f in reg["fields"]))


def hw2reg_fields(reg):
    """(name, width) of the hw2reg members of one register, in declaration order."""
    rn = reg["name"].lower()
    out = []
    for f in reg["fields"]:
        if field_source(reg, f) == "hw":
            out.append((f"{rn}_{f['name'].lower()}", f["width"]))
        if f["access"] == "w1c":
            out.append((f"{rn}_{f['name'].lower()}_set", f["width"]))
    if reg.get("refuse") is not None:
        out.append((f"{rn}_refuse", 1))
    return out


def reg2hw_fields(reg):
    """(name, width, kind) of the reg2hw members: kind 'qe', 're', 'flop' (the stored value) or
    'wdata' (the written field value, meaningful with qe)."""
    rn = reg["name"].lower()
    out = []
    if has_qe(reg):
        out.append((f"{rn}_qe", 1, "qe"))
    if reg.get("read_pulse", False):
        out.append((f"{rn}_re", 1, "re"))
    for f in reg["fields"]:
        src = field_source(reg, f)
        fname = f"{rn}_{f['name'].lower()}"
        if src == "flop":
            out.append((fname, f["width"], "flop"))
        elif f["access"] != "ro" and has_qe(reg):
            out.append((fname, f["width"], "wdata"))
    return out


def arrays(blk):
    return blk.get("arrays", [])


def array_index_width(a):
    return max(1, (a["entries"] - 1).bit_length())


def array_hw2reg(a):
    """(name, width) of an array's hw2reg members."""
    an = a["name"].lower()
    out = [(f"{an}_rdata", 32)]
    if a.get("refuse") is not None:
        out.append((f"{an}_refuse", 1))
    return out


def array_reg2hw(a):
    """(name, width, kind) of an array's reg2hw members: kind 'index', 'we', 'awdata', 're'."""
    an = a["name"].lower()
    out = [(f"{an}_index", array_index_width(a), "index")]
    if a["access"] == "rw":
        out += [(f"{an}_we", 1, "we"), (f"{an}_wdata", 32, "awdata")]
    if a.get("read_pulse", False):
        out.append((f"{an}_re", 1, "re"))
    return out


def block_hw2reg(blk):
    return [m for r in blk["registers"] for m in hw2reg_fields(r)] + [m for a in arrays(blk) for m in array_hw2reg(a)]


def block_reg2hw(blk):
    return [m for r in blk["registers"] for m in reg2hw_fields(r)] + [m for a in arrays(blk) for m in array_reg2hw(a)]


def array_addr(enc, blk, a):
    return (blk["window"] << param(enc, "WINDOW_SHIFT")) + a["offset"]


def flops(reg):
    """The fields the register block stores."""
    return [f for f in reg["fields"] if field_source(reg, f) == "flop"]
