"""Launch-spec handling shared by the GPU runner and the comparison script.

Mirrors crates/emu/src/spec.rs and docs/launch-spec.md: the same keys, the same buffer
initialisation (bit for bit, including the splitmix64 random generator), the same kernel-name
matching. Needs numpy; nothing here touches the GPU.
"""

import os
import re
import sys

try:
    import tomllib  # Python 3.11+
except ImportError:  # pragma: no cover
    try:
        import tomli as tomllib  # type: ignore
    except ImportError:
        sys.exit("error: needs Python 3.11+ (tomllib) or the tomli package to read launch specs")

import numpy as np

# type name -> (numpy dtype of the stored bits, size in bytes, kind)
TYPES = {
    "i8": (np.int8, 1, "int"),
    "i16": (np.int16, 2, "int"),
    "i32": (np.int32, 4, "int"),
    "i64": (np.int64, 8, "int"),
    "u8": (np.uint8, 1, "uint"),
    "u16": (np.uint16, 2, "uint"),
    "u32": (np.uint32, 4, "uint"),
    "u64": (np.uint64, 8, "uint"),
    "f16": (np.float16, 2, "float"),
    "bf16": (np.uint16, 2, "bf16"),  # stored as raw bits
    "f32": (np.float32, 4, "float"),
    "f64": (np.float64, 8, "float"),
}
ALIASES = {"s8": "i8", "s16": "i16", "s32": "i32", "s64": "i64"}

MASK64 = (1 << 64) - 1


class SpecError(Exception):
    pass


def type_of(name):
    name = ALIASES.get(name, name)
    if name not in TYPES:
        raise SpecError(f"unknown type `{name}`")
    return name


def int_range(t):
    size = TYPES[t][1] * 8
    if TYPES[t][2] == "int":
        return -(1 << (size - 1)), (1 << (size - 1)) - 1
    return 0, (1 << size) - 1


def f32_to_bf16_bits(x32):
    """Round float32 values to bfloat16 bits, to nearest even (NaN -> 0x7fff)."""
    b = np.asarray(x32, dtype=np.float32).view(np.uint32).astype(np.uint64)
    lsb = (b >> np.uint64(16)) & np.uint64(1)
    rounded = (b + np.uint64(0x7FFF) + lsb) >> np.uint64(16)
    out = rounded.astype(np.uint16)
    nan = np.isnan(np.asarray(x32, dtype=np.float32))
    out[nan] = np.uint16(0x7FFF)
    return out


def floats_to_type(x64, t):
    """f64 values -> stored array of float type t (f64 as is; f32 rounded; f16/bf16 via f32)."""
    x64 = np.asarray(x64, dtype=np.float64)
    if t == "f64":
        return x64.copy()
    with np.errstate(over="ignore", invalid="ignore"):
        x32 = x64.astype(np.float32)
        if t == "f32":
            return x32
        if t == "f16":
            return x32.astype(np.float16)
    if t == "bf16":
        return f32_to_bf16_bits(x32)
    raise SpecError(f"{t} is not a float type")


def splitmix(seed, n):
    """splitmix64 of counters 0..n-1 under `seed` (uint64 array)."""
    i = np.arange(n, dtype=np.uint64)
    with np.errstate(over="ignore"):
        z = np.uint64(seed) + (i + np.uint64(1)) * np.uint64(0x9E3779B97F4A7C15)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        z = z ^ (z >> np.uint64(31))
    return z


def scalar_bits_int(value, t):
    if isinstance(value, float):
        if value != int(value):
            raise SpecError(f"{value} is not an integer, but the type is {t}")
        value = int(value)
    lo, hi = int_range(t)
    if value < lo or value > hi:
        raise SpecError(f"{value} does not fit {t} ({lo}..={hi})")
    return value


def buffer_array(buf, spec_dir):
    """The initial contents of a buffer table as a numpy array of its stored dtype."""
    t = type_of(buf["type"])
    n = int(buf["len"])
    dtype, size, kind = TYPES[t]
    init = buf.get("init", "zeros")
    if init == "zeros":
        return np.zeros(n, dtype=dtype)
    if init == "iota":
        i = np.arange(n, dtype=np.uint64)
        if kind in ("float", "bf16"):
            return floats_to_type(np.arange(n, dtype=np.float64), t)
        bits = size * 8
        if bits < 64:
            i = i & np.uint64((1 << bits) - 1)
        utype = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}[size]
        return i.astype(utype).view(dtype)
    if isinstance(init, dict) and "constant" in init:
        v = init["constant"]
        if kind in ("float", "bf16"):
            return floats_to_type(np.full(n, float(v), dtype=np.float64), t)
        v = scalar_bits_int(v, t)
        return np.full(n, v, dtype=dtype)
    if isinstance(init, dict) and "random" in init:
        r = init["random"]
        seed = int(r.get("seed", 0))
        z = splitmix(seed, n)
        if kind in ("float", "bf16"):
            lo = float(r.get("min", 0.0))
            hi = float(r.get("max", 1.0))
            u = (z >> np.uint64(11)).astype(np.float64) * (1.0 / float(1 << 53))
            x = lo + (hi - lo) * u
            return floats_to_type(x, t)
        lo = scalar_bits_int(r.get("min", 0), t)
        hi = scalar_bits_int(r.get("max", 100), t)
        rng = hi - lo + 1
        with np.errstate(over="ignore"):
            if rng >= (1 << 64):
                v = z
            else:
                v = np.uint64(lo & MASK64) + (z % np.uint64(rng))
        bits = size * 8
        if bits < 64:
            v = v & np.uint64((1 << bits) - 1)
        utype = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}[size]
        return v.astype(utype).view(dtype)
    if isinstance(init, dict) and "file" in init:
        path = os.path.join(spec_dir, init["file"])
        if path.endswith(".npy"):
            a = np.load(path)
            raw = a.tobytes()
        else:
            with open(path, "rb") as f:
                raw = f.read()
        if len(raw) != n * size:
            raise SpecError(f"{path} holds {len(raw)} bytes; the buffer needs {n * size}")
        return np.frombuffer(raw, dtype=np.dtype(dtype).newbyteorder("<")).astype(dtype)
    raise SpecError(f"unknown init {init!r}")


def load_spec(path):
    with open(path, "rb") as f:
        spec = tomllib.load(f)
    spec["_dir"] = os.path.dirname(os.path.abspath(path))
    spec["_text"] = open(path, encoding="utf-8").read()
    return spec


def unordered_buffers(spec):
    """Buffers whose table holds the comment `# order nondeterministic`."""
    out, cur = set(), None
    for line in spec["_text"].splitlines():
        s = line.strip()
        m = re.match(r"\[buffer\.([^\]]+)\]", s)
        if m:
            cur = m.group(1)
        elif s.startswith("["):
            cur = None
        elif s.startswith("#") and "order nondeterministic" in s and cur:
            out.add(cur)
    return out


def error_bounds(spec):
    """Buffers whose table holds `# error bound 2^-N: why`: {name: (2.0**-N, why)}.

    The relative-to-range bound of such a buffer comes from an error analysis of its kernel
    (what the approximate instructions' documented errors become after the arithmetic that
    follows them), written next to it, instead of the default."""
    out, cur = {}, None
    for line in spec["_text"].splitlines():
        s = line.strip()
        m = re.match(r"\[buffer\.([^\]]+)\]", s)
        if m:
            cur = m.group(1)
        elif s.startswith("["):
            cur = None
        elif cur:
            m = re.match(r"#\s*error bound 2\^-(\d+(?:\.\d+)?)\s*:?\s*(.*)", s)
            if m:
                out[cur] = (2.0 ** -float(m.group(1)), m.group(2))
    return out


def buffers_in_order(spec):
    """Buffer tables in file order (names)."""
    names = list(spec.get("buffer", {}).keys())
    text = spec["_text"]
    pos = {}
    for n in names:
        m = re.search(r"^\s*\[buffer\." + re.escape(n) + r"\]", text, re.M)
        pos[n] = m.start() if m else 0
    return sorted(names, key=lambda n: pos[n])


# --- kernels -------------------------------------------------------------------------------

def qualified_name(sym):
    """Itanium qualified function name of `sym` (ns::f), or None (mirrors demangle.rs)."""
    if not sym.startswith("_Z"):
        return None
    s = sym[2:]
    i = 0

    def source_name(i):
        j = i
        while j < len(s) and s[j].isdigit():
            j += 1
        if j == i:
            return None, i
        n = int(s[i:j])
        if j + n > len(s):
            return None, i
        return s[j:j + n], j + n

    def skip_balanced(i):
        depth = 0
        while i < len(s):
            c = s[i]
            if c in "INXL":
                depth += 1
            elif c == "E":
                depth -= 1
                if depth == 0:
                    return i + 1
            elif c.isdigit():
                _, j = source_name(i)
                if j == i:
                    return None
                i = j
                continue
            i += 1
        return None

    parts = []
    if s.startswith("N"):
        i = 1
        while i < len(s) and s[i] in "rVKRO":
            i += 1
        while True:
            if i >= len(s):
                return None
            c = s[i]
            if c == "E":
                break
            if s.startswith("St", i):
                parts.append("std")
                i += 2
            elif c == "I":
                i = skip_balanced(i)
                if i is None:
                    return None
            elif c.isdigit():
                name, j = source_name(i)
                if name is None:
                    return None
                parts.append(name)
                i = j
            else:
                return None
    elif s.startswith("St"):
        name, _ = source_name(2)
        if name is None:
            return None
        parts = ["std", name]
    else:
        name, _ = source_name(0)
        if name is None:
            return None
        parts = [name]
    return "::".join(parts)


def entry_params(ptx_text):
    """{kernel name: [param sizes in bytes]} from `.entry` declarations."""
    sizes = {"b8": 1, "s8": 1, "u8": 1, "b16": 2, "s16": 2, "u16": 2, "f16": 2, "bf16": 2,
             "b32": 4, "s32": 4, "u32": 4, "f32": 4, "b64": 8, "s64": 8, "u64": 8, "f64": 8}
    out = {}
    for m in re.finditer(r"\.entry\s+([\w$.]+)\s*\(([^)]*)\)", ptx_text):
        name, body = m.group(1), m.group(2)
        ps = []
        for p in body.split(","):
            p = p.strip()
            if not p:
                continue
            t = re.search(r"\.(b8|s8|u8|b16|s16|u16|f16|bf16|b32|s32|u32|f32|b64|s64|u64|f64)\b", p)
            arr = re.search(r"\[(\d+)\]", p)
            size = sizes[t.group(1)] if t else 8
            if arr:
                size *= int(arr.group(1))
            ps.append(size)
        out[name] = ps
    return out


def find_kernel(wanted, names):
    hits = [n for n in names if n == wanted]
    if hits:
        return hits[0]
    hits = []
    for n in names:
        q = qualified_name(n)
        if q is not None and (q == wanted or q.split("::")[-1] == wanted):
            hits.append(n)
    if len(hits) == 1:
        return hits[0]
    if not hits:
        raise SpecError(f"no kernel named `{wanted}`; the module has: {', '.join(names)}")
    raise SpecError(f"`{wanted}` is ambiguous: {', '.join(hits)}")


def dim3(v):
    if isinstance(v, int):
        v = [v]
    v = list(v) + [1] * (3 - len(v))
    return tuple(int(x) for x in v[:3])


def scalar_arg(t, value):
    """numpy scalar passing `value` as kernel argument type t."""
    t = type_of(t)
    dtype, size, kind = TYPES[t]
    if kind == "float":
        return floats_to_type(np.array([float(value)]), t)[0]
    if kind == "bf16":
        return floats_to_type(np.array([float(value)]), t)[0]
    return dtype(scalar_bits_int(value, t))


def var_arg(value, size):
    return {1: np.int8, 2: np.int16, 4: np.int32, 8: np.int64}[size](value)


def launches(spec):
    """Yields (index, launch table, repeat value or None) in execution order."""
    for li, l in enumerate(spec.get("launch", [])):
        r = l.get("repeat")
        if r is None:
            yield li, l, None
        else:
            step = int(r.get("step", 1))
            for t in range(int(r["from"]), int(r["to"]) + 1, step):
                yield li, l, t


# --- comparison ----------------------------------------------------------------------------

def ordered_ints(a, t):
    """Float bits mapped to integers whose differences count ulps."""
    if t == "f64":
        i = a.view(np.int64)
        return np.where(i >= 0, i, -(i & np.int64(0x7FFFFFFFFFFFFFFF)))
    if t == "f32":
        i = a.view(np.int32).astype(np.int64)
        return np.where(i >= 0, i, -(i & 0x7FFFFFFF))
    if t in ("f16", "bf16"):
        i = a.view(np.int16).astype(np.int64)
        return np.where(i >= 0, i, -(i & 0x7FFF))
    raise SpecError(t)


def float_values(a, t):
    if t == "bf16":
        return (a.astype(np.uint32) << np.uint32(16)).view(np.float32).astype(np.float64)
    return a.astype(np.float64)


def main_guard():
    if sys.version_info < (3, 8):
        sys.exit("python 3.8 or newer is needed")
