#!/bin/sh
# gk stencil with stencil descriptions (--stencil, --dims/--shape/--radius/
# --boundary/--type, --coeffs of (2r+1)^dims weights): results, float32
# files and every bad-input rule (one line naming the file or option,
# non-zero exit, no output file).
. "$top_srcdir/tests/tap.sh"
d=$t_tmp

# results: --check (bit for bit against the plain loop) on every kind
for s in 3d-star-r1 3d-star-r2:periodic 3d-box-r2:fixed 2d-star-r4:periodic 2d-box-r1:fixed 2d-box-r3; do
  case $s in 2d*) size=11x13 ;; *) size=11x13x9 ;; esac
  for ty in f64 f32; do
    t_ok "$s $ty --check" "$GK" stencil --stencil=$s --type=$ty --size=$size --steps=3 --check --device=cpu
    grep -q "bit for bit: ok" "$t_tmp/out"; t_result $? "$s $ty: checked bit for bit"
  done
done 2>/dev/null
# 2D sizes: N, NXxNY
t_ok "2D --size=9 is 9x9x1" "$GK" stencil --dims=2 --size=9 --steps=1 --device=cpu
grep -q "9x9x1" "$t_tmp/out"; t_result $? "2D: one number is a square"
t_ok "2D --size=9x5" "$GK" stencil --dims=2 --size=9x5 --steps=1 --device=cpu
grep -q "9x5x1" "$t_tmp/out"; t_result $? "2D: NXxNY"

# --stencil and the separate options name the same stencil
t_ok "--stencil=3d-star-r2:periodic --type=f32" "$GK" stencil --stencil=3d-star-r2:periodic --type=f32 --size=7x6x5 \
  --steps=2 --seed=3 --output="$d/a.bin" --device=cpu
t_ok "--dims=3 --shape=star --radius=2 --boundary=periodic --type=f32" "$GK" stencil --dims=3 --shape=star --radius=2 \
  --boundary=periodic --type=f32 --size=7x6x5 --steps=2 --seed=3 --output="$d/b.bin" --device=cpu
cmp -s "$d/a.bin" "$d/b.bin"; t_result $? "the same result both ways"
# --boundary combines with a --stencil that names none (as --type does); the
# same boundary named twice is fine
t_ok "--stencil=3d-star-r2 --boundary=periodic --type=f32" "$GK" stencil --stencil=3d-star-r2 --boundary=periodic \
  --type=f32 --size=7x6x5 --steps=2 --seed=3 --output="$d/c.bin" --device=cpu
cmp -s "$d/a.bin" "$d/c.bin"; t_result $? "--boundary with --stencil: the description's boundary"
t_ok "--stencil=3d-star-r2:periodic --boundary=periodic" "$GK" stencil --stencil=3d-star-r2:periodic \
  --boundary=periodic --type=f32 --size=7x6x5 --steps=2 --seed=3 --output="$d/c2.bin" --device=cpu
cmp -s "$d/a.bin" "$d/c2.bin"; t_result $? "the boundary named twice, the same"
t_ok "--stencil=3d-star-r2 --type=f32 (zero)" "$GK" stencil --stencil=3d-star-r2 --type=f32 --size=7x6x5 --steps=2 \
  --seed=3 --output="$d/z.bin" --device=cpu
! cmp -s "$d/a.bin" "$d/z.bin"; t_result $? "periodic differs from zero (the --boundary took effect)"
[ "$(wc -c <"$d/a.bin")" -eq $((7 * 6 * 5 * 4)) ]; t_result $? "a float32 output is NX*NY*NZ*4 bytes"
# the type in the text, after the boundary or before it (gktune's and gk
# bench's lists write it so): the same grid as --type=f32
for desc in 3d-star-r2:periodic:f32 3d-star-r2:f32:periodic; do
  rm -f "$d/t.bin"
  t_ok "--stencil=$desc" "$GK" stencil --stencil=$desc --size=7x6x5 --steps=2 --seed=3 --output="$d/t.bin" --device=cpu
  cmp -s "$d/a.bin" "$d/t.bin"; t_result $? "--stencil=$desc: the --type=f32 result"
done
t_fails "a type in the text and another --type" 2 "two element types" \
  "$GK" stencil --stencil=3d-star-r2:f32 --type=f64 --size=8 --output="$d/x.bin" --device=cpu
t_fails "two boundaries in the text" 2 "two boundaries" \
  "$GK" stencil --stencil=3d-star-r2:zero:fixed --size=8 --output="$d/x.bin" --device=cpu
[ ! -e "$d/x.bin" ]; t_result $? "no output after those usage errors"

# an independent computation (python): 2D star r1 fixed with a weights file,
# f64, 2 steps (python's sum of products against gk's fma chain: 1e-14)
printf '0 1 0\n2 -3.5 4\n0 0.25 0\n' >"$d/w9.txt"
if command -v python3 >/dev/null 2>&1; then
  "$GK" stencil --dims=2 --shape=star --boundary=fixed --coeffs="$d/w9.txt" --size=6x5 --steps=0 --seed=4 \
    --output="$d/p0.bin" --device=cpu &&
  "$GK" stencil --dims=2 --shape=star --boundary=fixed --coeffs="$d/w9.txt" --size=6x5 --steps=2 --input="$d/p0.bin" \
    --output="$d/p2.bin" --device=cpu
  python3 - "$d/p0.bin" "$d/p2.bin" <<'PY'
import struct, sys
nx, ny = 6, 5
w = [[0, 1, 0], [2, -3.5, 4], [0, 0.25, 0]]     # w[dy+1][dx+1]
g = list(struct.unpack('<%dd' % (nx*ny), open(sys.argv[1], 'rb').read()))
for s in range(2):
    o = list(g)
    for y in range(1, ny-1):
        for x in range(1, nx-1):
            o[y*nx+x] = sum(w[dy+1][dx+1] * g[(y+dy)*nx + x+dx] for dy in (-1, 0, 1) for dx in (-1, 0, 1))
    g = o
r = struct.unpack('<%dd' % (nx*ny), open(sys.argv[2], 'rb').read())
sys.exit(0 if max(abs(a-b) for a, b in zip(g, r)) < 1e-13 else 1)
PY
  t_result $? "2D star r1 fixed with a weights file = python's loop (band kept, interior updated)"
  python3 - "$d/p0.bin" "$d/p2.bin" <<'PY'
import struct, sys
a = open(sys.argv[1], 'rb').read(); b = open(sys.argv[2], 'rb').read()
nx, ny = 6, 5
ga = struct.unpack('<30d', a); gb = struct.unpack('<30d', b)
band = [i for i in range(30) if i % nx in (0, nx-1) or i // nx in (0, ny-1)]
sys.exit(0 if all(ga[i] == gb[i] for i in band) and ga != gb else 1)
PY
  t_result $? "fixed: the band is unchanged, the rest moved"
else
  t_skip "no python3" "python reference"; t_skip "no python3" "fixed band"
fi
t_ok "--json names the stencil" "$GK" stencil --stencil=2d-star-r2 --type=f32 --size=9 --steps=1 --json --device=cpu
grep -q '"stencil": *"2d-star-r2"' "$t_tmp/out" && grep -q '"type": *"f32"' "$t_tmp/out" && grep -q '"points": *9' "$t_tmp/out"
t_result $? "--json: stencil, type, points"

# the GPU, when there is one (and the generated engine is in the build): --check
# (bit for bit against the CPU backend) and the same output file as the CPU
if "$GK" info | grep -q "compute capability"; then
  if "$GK" stencil --stencil=3d-star-r1 --size=8 --steps=1 --device=gpu 2>"$d/gerr" >/dev/null ||
     ! grep -q "not merged yet" "$d/gerr"; then
    for s in 3d-star-r1 3d-star-r4:periodic 3d-box-r2:fixed 2d-star-r2 2d-box-r1:periodic 3d-box-r1:periodic; do
      case $s in 2d*) size=67x45 ;; *) size=37x21x19 ;; esac
      for ty in f64 f32; do
        t_ok "gpu $s $ty --check" "$GK" stencil --stencil=$s --type=$ty --size=$size --steps=5 --check --device=gpu
        "$GK" stencil --stencil=$s --type=$ty --size=$size --steps=5 --seed=9 --output="$d/gpu.bin" --device=gpu &&
        "$GK" stencil --stencil=$s --type=$ty --size=$size --steps=5 --seed=9 --output="$d/cpu.bin" --device=cpu &&
        cmp -s "$d/gpu.bin" "$d/cpu.bin"; t_result $? "gpu $s $ty: the CPU's output file, byte for byte"
      done
    done
  else
    t_skip "the generated GPU engine is not in this build" "gpu descriptions"
  fi
fi

# gk bench stencil --stencil on the CPU: the plain loop and the backend, checked bit for bit
t_ok "bench stencil --stencil=2d-star-r2:periodic --type=f32" "$GK" bench stencil --device=cpu \
  --stencil=2d-star-r2:periodic --type=f32 --sizes=33x17 --steps=2 --reps=2
grep -q "^33x17 .* cpu .*ok (bit-exact)" "$t_tmp/out" && grep -q "reference" "$t_tmp/out" && grep -q "copy bandwidth" "$t_tmp/out"
t_result $? "bench: the backend's row is bit-exact, with the reference row and the copy floor"
t_ok "bench stencil --stencil --json" "$GK" bench stencil --device=cpu --stencil=3d-box-r1:fixed --sizes=9 --steps=1 \
  --reps=1 --json
grep -q '"ok": *true' "$t_tmp/out"; t_result $? "bench --json: ok"
t_fails "bench --stencil with --config" 2 "--config" "$GK" bench stencil --device=cpu --stencil=3d-star-r1 --config=DESIGN=1
t_fails "bench --stencil periodic too small: a usage error" 2 "--sizes: 5: .*2r+1" "$GK" bench stencil --device=cpu --stencil=3d-star-r3:periodic --sizes=5

# bad input: one line, non-zero exit, no output file
o="$d/bad.bin"
printf '1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27\n' >"$d/w27.txt"
t_fails "weights file of the wrong length" 1 "w27.txt.*27 numbers.*exactly 125" \
  "$GK" stencil --stencil=3d-star-r2 --coeffs="$d/w27.txt" --size=8 --output="$o" --device=cpu
printf '1 2 3 4 nan 6 7 8 9\n' >"$d/wnan.txt"
t_fails "a NaN weight" 1 "wnan.txt.*number 5.*not a finite" \
  "$GK" stencil --dims=2 --coeffs="$d/wnan.txt" --size=8 --output="$o" --device=cpu
printf '1 2 3 4 inf 6 7 8 9\n' >"$d/winf.txt"
t_fails "an infinite weight" 1 "winf.txt.*not a finite" \
  "$GK" stencil --dims=2 --coeffs="$d/winf.txt" --size=8 --output="$o" --device=cpu
printf '1 2 3 4 5 6 7 8 9\n' >"$d/wbox.txt"
t_fails "a star with off-axis weights" 1 "wbox.txt.*off the star" \
  "$GK" stencil --dims=2 --shape=star --coeffs="$d/wbox.txt" --size=8 --output="$o" --device=cpu
t_fails "radius 5" 2 "radius" "$GK" stencil --radius=5 --size=8 --output="$o" --device=cpu
t_fails "radius 0" 2 "radius" "$GK" stencil --radius=0 --size=8 --output="$o" --device=cpu
t_fails "--stencil radius 5" 2 "3d-star-r5" "$GK" stencil --stencil=3d-star-r5 --size=8 --output="$o" --device=cpu
t_fails "--stencil garbage" 2 "--stencil.*3d-cube" "$GK" stencil --stencil=3d-cube-r1 --size=8 --output="$o" --device=cpu
t_fails "periodic below 2r+1: a usage error" 2 "ny = 4.*2r+1 = 5" \
  "$GK" stencil --stencil=3d-star-r2:periodic --size=9x4x9 --output="$o" --device=cpu
t_fails "--type=f16" 2 "--type" "$GK" stencil --type=f16 --size=8 --output="$o" --device=cpu
t_fails "--shape=diamond" 2 "--shape" "$GK" stencil --shape=diamond --size=8 --output="$o" --device=cpu
t_fails "--boundary=wrap" 2 "--boundary" "$GK" stencil --boundary=wrap --size=8 --output="$o" --device=cpu
t_fails "--stencil:fixed with another --boundary" 2 "--stencil=3d-star-r1:fixed and --boundary=periodic name two" \
  "$GK" stencil --stencil=3d-star-r1:fixed --boundary=periodic --size=8 --output="$o" --device=cpu
t_fails "--stencil with --boundary: periodic below 2r+1" 2 "nx = 4.*2r+1 = 5" \
  "$GK" stencil --stencil=3d-star-r2 --boundary=periodic --size=4x9x9 --output="$o" --device=cpu
t_fails "bench: a 3D size for a 2D stencil, before any row" 2 "--sizes: 4x4x2: .*nz = 1" \
  "$GK" bench stencil --device=cpu --stencil=2d-star-r1 --sizes=8,4x4x2 --steps=1 --reps=1
[ ! -s "$t_tmp/out" ]; t_result $? "bench: nothing printed before the usage error"
t_fails "--stencil with --dims" 2 "one or the other" "$GK" stencil --stencil=2d-box-r1 --dims=2 --size=8 --output="$o"
t_fails "a mask without weights: a usage error" 2 "mask needs weights" "$GK" stencil --shape=mask --size=8 --output="$o" --device=cpu
t_fails "2D with nz = 2: a usage error" 2 "nz = 1" "$GK" stencil --dims=2 --size=4x4x2 --output="$o" --device=cpu
# --config with a description: the generated engine's parameters, checked
# against the description's rules (usage errors naming the parameter and
# the description); on the CPU checked, then ignored (a warning), the
# result the same
t_fails "--config DESIGN=1 with a 3D description (the warp design is 2D's)" 2 \
  "--config: stencil 3d-star-r1-f64-zero: .*DESIGN=1 (warp streaming) is for 2D" \
  "$GK" stencil --stencil=3d-star-r1 --config=DESIGN=1 --size=8 --output="$o"
t_fails "--config: an unknown parameter of a description" 2 "3d-star-r2-f64-periodic.*no parameter 'BX'" \
  "$GK" stencil --stencil=3d-star-r2:periodic --config=BX=16 --size=8 --output="$o" --device=cpu
t_fails "--config: a value outside its range" 2 "2d-box-r1-f32-zero.*TSTEPS=9 is outside \[1, 8\]" \
  "$GK" stencil --stencil=2d-box-r1:f32 --config=TSTEPS=9 --size=8 --output="$o" --device=cpu
t_fails "--config: a 2D tile of 4 rows (the description's rules)" 2 "2d-star-r1-f64-fixed.*TY=4: a 2D tile is one row" \
  "$GK" stencil --stencil=2d-star-r1:fixed --config=DESIGN=0,TY=4 --size=8 --output="$o" --device=cpu
t_fails "--config: more than 4 steps per pass outside the warp design" 2 \
  "2d-star-r3-f64-zero.*TSTEPS=6: more than 4 steps per pass is the warp design's" \
  "$GK" stencil --stencil=2d-star-r3 --config=DESIGN=0,TSTEPS=6 --size=16 --output="$o" --device=cpu
t_fails "--config with a description past one process" 2 "--config with stencil 3d-star-r1-f64-zero: one process" \
  "$GK" stencil --stencil=3d-star-r1 --config=DESIGN=0,TSTEPS=2 --exchange=host --size=8 --output="$o" --device=cpu
t_ok "--config with a description on the CPU: checked, ignored" "$GK" stencil --stencil=3d-star-r2:periodic --type=f32 \
  --size=7x6x5 --steps=2 --seed=3 --output="$d/cfg.bin" --device=cpu --config=DESIGN=0,TX=16,TSTEPS=2,ZC=3
grep -q "applies to the GPU kernels" "$t_tmp/err"; t_result $? "--config on the CPU: the warning says it was ignored"
cmp -s "$d/a.bin" "$d/cfg.bin"; t_result $? "--config on the CPU: the same result"
t_ok "--config with a 2D description, the warp design, --check" "$GK" stencil --stencil=2d-box-r2:fixed --size=40x30 \
  --steps=3 --check --device=cpu --config=DESIGN=1,PX=4,TSTEPS=2 --json
grep -q '"config":"ignored on the CPU"' "$t_tmp/out"; t_result $? "--config on the CPU: --json says ignored"
# past one GPU a description runs (tests/test_stencil_multi.sh); its halos move through host memory, not NCCL
t_fails "--exchange=device with a description" 1 "through host memory, not NCCL" \
  "$GK" stencil --stencil=3d-star-r1 --exchange=device --device=cpu --size=8 --output="$o"
"$GK" gen grid --size=5x4x3 "$d/g64.bin" || exit 1
t_fails "a float64 file read as float32 (size)" 1 "g64.bin.*480 bytes.*float32 grid is 240" \
  "$GK" stencil --type=f32 --size=5x4x3 --input="$d/g64.bin" --output="$o" --device=cpu
python3 -c 'import struct,sys; open(sys.argv[1],"wb").write(struct.pack("<60f", *([0.5]*13 + [float("nan")] + [0.5]*46)))' \
  "$d/nan32.bin" 2>/dev/null || printf '' >"$d/nan32.bin"
if [ -s "$d/nan32.bin" ]; then
  t_fails "a NaN in a float32 grid" 1 "nan32.bin.*x=3 y=2 z=0.*NaN" \
    "$GK" stencil --stencil=3d-star-r1 --type=f32 --size=5x4x3 --input="$d/nan32.bin" --output="$o" --device=cpu
else
  t_skip "no python3" "NaN in a float32 grid"
fi
[ ! -e "$o" ]; t_result $? "no bad input left an output file"
t_done
