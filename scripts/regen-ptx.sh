#!/usr/bin/env bash
# Regenerate the committed PTX of the kernel corpus: corpus/<name>.cu -> corpus/<name>.ptx
#
#   scripts/regen-ptx.sh                  # all corpus/*.cu, written beside the sources
#   scripts/regen-ptx.sh corpus/foo.cu    # only these sources
#   scripts/regen-ptx.sh --out DIR [...]  # write DIR/<name>.ptx instead (used by check-ptx-current.sh)
#   scripts/regen-ptx.sh --print-nvcc     # print the nvcc that would be used; exit 3 if none
#
# The PTX must come from nvcc V13.0.88 exactly: it writes PTX ISA `.version 9.0`, the newest the
# driver on the H100 we validate against accepts. Newer nvvm writes `.version 9.5` and is refused.
# Flags: -ptx -lineinfo -arch=sm_90 -O3 (no -G; -lineinfo keeps `.loc` lines for source mapping).
#
# nvcc is looked for in: $NVCC, $CUDA_HOME/bin, PATH, then the pip wheel location
# (<site-packages>/nvidia/cu13/bin of `python3`). The first candidate that reports V13.0.88 wins.
#
# Paths are made machine independent: the compile runs from the repo root on corpus/<name>.cu, and
# `.file` lines are rewritten to "corpus/<name>.cu" for corpus sources and "<cuda>/include/..." for
# toolkit headers; timestamp/size fields of `.file` are dropped. The script fails if an absolute
# path (/root, /tmp, /work, /home, ...) survives in the output.
set -euo pipefail

WANT_VERSION="V13.0.88"
PIP_HINT="pip install nvidia-cuda-nvcc==13.0.88 nvidia-nvvm==13.0.88 nvidia-cuda-crt==13.0.88 nvidia-cuda-runtime==13.0.96 nvidia-cuda-cccl==13.0.85
  (all four pins are needed: a bare nvidia-cuda-nvcc pin pulls nvidia-nvvm 13.5, which writes .version 9.5)"

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
cd "$ROOT"

candidates() {
    if [[ -n "${NVCC:-}" ]]; then echo "$NVCC"; fi
    if [[ -n "${CUDA_HOME:-}" ]]; then echo "$CUDA_HOME/bin/nvcc"; fi
    if command -v nvcc >/dev/null 2>&1; then command -v nvcc; fi
    local py
    for py in python3 python; do
        if command -v "$py" >/dev/null 2>&1; then
            "$py" - <<'EOF' 2>/dev/null || true
import os
try:
    import nvidia
    for p in list(nvidia.__path__):
        print(os.path.join(p, "cu13", "bin", "nvcc"))
except Exception:
    pass
EOF
            break
        fi
    done
}

find_nvcc() {
    local c v
    SEEN=""
    while IFS= read -r c; do
        [[ -n "$c" && -x "$c" ]] || continue
        v="$("$c" --version 2>/dev/null | grep -o 'V[0-9][0-9.]*' | tail -n1 || true)"
        SEEN+="  $c: ${v:-unknown version}"$'\n'
        if [[ "$v" == "$WANT_VERSION" ]]; then
            NVCC_BIN="$c"
            return 0
        fi
    done < <(candidates)
    return 1
}

OUT_DIR=""
PRINT_ONLY=0
FILES=()
while [[ $# -gt 0 ]]; do
    case "$1" in
        --out) OUT_DIR="$2"; shift 2 ;;
        --print-nvcc) PRINT_ONLY=1; shift ;;
        -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
        *) FILES+=("$1"); shift ;;
    esac
done

NVCC_BIN=""
SEEN=""
if ! find_nvcc; then
    {
        echo "error: nvcc $WANT_VERSION not found (it must be exactly this version: the H100 driver we"
        echo "validate on refuses PTX newer than .version 9.0)."
        if [[ -n "$SEEN" ]]; then echo "candidates seen:"; printf '%s' "$SEEN"; fi
        echo "install it with:"
        echo "  $PIP_HINT"
        echo "or point NVCC=/path/to/nvcc (or CUDA_HOME) at a 13.0.88 toolkit."
    } >&2
    exit 3
fi
if [[ $PRINT_ONLY -eq 1 ]]; then echo "$NVCC_BIN"; exit 0; fi

# Toolkit root as nvcc sees it (headers are reported as <root>/bin/..//include/... or <root>/include/...).
CUDA_ROOT="$(cd "$(dirname "$NVCC_BIN")/.." && pwd -P)"
CUDA_ROOT_LOGICAL="$(cd "$(dirname "$NVCC_BIN")/.." && pwd -L)"

if [[ ${#FILES[@]} -eq 0 ]]; then
    mapfile -t FILES < <(ls corpus/*.cu | LC_ALL=C sort)
fi
[[ -n "$OUT_DIR" ]] && mkdir -p "$OUT_DIR"

TMP="$(mktemp -d)"
STAGE=/tmp/warpscope-ptx-stage
exec 9>"$STAGE.lock"
flock 9
mkdir -p "$STAGE"
trap 'rm -rf "$TMP" "$STAGE"' EXIT

status=0
for src in "${FILES[@]}"; do
    src="${src#./}"
    case "$src" in
        /*) src="${src#"$ROOT"/}" ;;
    esac
    [[ -f "$src" ]] || { echo "error: no such source $src" >&2; status=1; continue; }
    name="$(basename "$src" .cu)"
    dir="$(dirname "$src")"
    if [[ -n "$OUT_DIR" ]]; then dest="$OUT_DIR/$name.ptx"; else dest="$dir/$name.ptx"; fi
    raw="$TMP/$name.raw.ptx"
    # nvcc hashes the source's absolute path into the names of internal-linkage functions
    # (`_ZN37_INTERNAL_<hash>_...`, visible in the debug strings), so compile a copy staged at
    # one fixed path: the PTX is then the same from every checkout, CI's clean clone included.
    rm -rf "$STAGE/$dir" && mkdir -p "$STAGE/$dir" && cp "$src" "$STAGE/$src"
    # Headers beside the source (and below it) that it may #include, staged with it.
    while IFS= read -r h; do
        mkdir -p "$STAGE/$(dirname "$h")" && cp "$h" "$STAGE/$h"
    done < <(find "$dir" -mindepth 1 \( -name '*.h' -o -name '*.cuh' \) | LC_ALL=C sort)
    if ! (cd "$STAGE" && "$NVCC_BIN" -ptx -lineinfo -arch=sm_90 -O3 "$src" -o "$raw"); then
        echo "error: nvcc failed on $src" >&2
        status=1
        continue
    fi
    # Rewrite .file lines: repo paths become relative, toolkit paths become <cuda>/..., and the
    # optional ", timestamp, size" fields are dropped.
    ROOT="$STAGE" CUDA_ROOT="$CUDA_ROOT" CUDA_ROOT_LOGICAL="$CUDA_ROOT_LOGICAL" \
    perl -pe '
        BEGIN { $r = $ENV{ROOT}; $c = $ENV{CUDA_ROOT}; $cl = $ENV{CUDA_ROOT_LOGICAL}; }
        if (/^(\s*\.file\s+\d+\s+)"([^"]*)"(.*)$/) {
            my ($pre, $p, $rest) = ($1, $2, $3);
            $p =~ s{/\.?/}{/}g while $p =~ m{/\.?/};          # squeeze // and /./
            1 while $p =~ s{/[^/]+/\.\./}{/};                  # fold dir/../
            if (index($p, "$r/") == 0) { $p = substr($p, length($r) + 1); }
            elsif (index($p, "$c/") == 0) { $p = "<cuda>/" . substr($p, length($c) + 1); }
            elsif (index($p, "$cl/") == 0) { $p = "<cuda>/" . substr($p, length($cl) + 1); }
            elsif ($p =~ m{/(?:targets/[^/]+/)?include/(.*)$}) { $p = "<cuda>/include/$1"; }
            elsif ($p =~ m{^/}) { $p = "<abs>/" . (split m{/}, $p)[-1]; }
            $rest =~ s/^\s*,\s*\d+\s*,\s*\d+//;
            $_ = "$pre\"$p\"$rest\n";
        }
    ' "$raw" > "$TMP/$name.ptx"
    if grep -nE '/(root|tmp|work|home|usr)/' "$TMP/$name.ptx" >&2; then
        echo "error: machine path left in PTX of $src (lines above)" >&2
        status=1
        continue
    fi
    if ! grep -q '^\.version 9\.0$' "$TMP/$name.ptx"; then
        echo "error: $src: PTX is not .version 9.0 (wrong nvvm?)" >&2
        status=1
        continue
    fi
    cp "$TMP/$name.ptx" "$dest"
    [[ -z "$OUT_DIR" ]] && echo "wrote $dest"
done
exit $status
