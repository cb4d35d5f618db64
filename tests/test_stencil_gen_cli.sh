#!/bin/sh
# gktune --stencil and gk bench stencil --stencil: every bad argument is a
# usage error (exit 2, one line naming it) before any GPU work; on a GPU,
# one small bench and one short tuning run (bit-exact rows, a cache entry
# keyed by the shape).
. "$top_srcdir/tests/tap.sh"
t_fails "gktune: an unknown shape" 2 "3d-blob-r1" "$GKTUNE" --stencil=3d-blob-r1
t_fails "gktune: a radius past 4" 2 "3d-star-r9" "$GKTUNE" --stencil=3d-star-r9
t_fails "gktune: an unknown suffix" 2 "'f16'" "$GKTUNE" --stencil=2d-box-r2:f16
t_fails "gktune: one bad entry of a list" 2 "4d-box-r1" "$GKTUNE" --stencil=3d-star-r1,4d-box-r1
t_fails "gktune: --stencil-size without --stencil" 2 "without --stencil" "$GKTUNE" --stencil-size=64
t_fails "gktune: --stencil-size below 3" 2 "stencil-size" "$GKTUNE" --stencil=3d-star-r1 --stencil-size=2
t_fails "gktune: --stencil with --kernels" 2 "takes --stencil-size" "$GKTUNE" --stencil=3d-star-r1 --kernels=apsp
t_fails "bench: a bad description" 2 "'3d-star'" "$GK" bench stencil --stencil=3d-star
t_fails "bench: a 3D size for a 2D description" 2 "is 3D; 2d-star-r1 is 2D" \
  "$GK" bench stencil --stencil=2d-star-r1 --sizes=64x64x2
t_fails "bench: a 2D size for a 3D description" 2 "not a size" "$GK" bench stencil --stencil=3d-star-r1 --sizes=64x64
t_fails "bench: a zero size" 2 "out of range" "$GK" bench stencil --stencil=2d-star-r1 --sizes=0
t_fails "bench: a parameter out of range" 2 "TX=0 is outside" "$GK" bench stencil --stencil=2d-star-r1 --config=TX=0
t_fails "bench: an unknown parameter" 2 "NOPE" "$GK" bench stencil --stencil=2d-star-r1 --config=NOPE=1
t_ok "bench: --stencil with --device=cpu runs the CPU description rows" \
  "$GK" bench stencil --stencil=3d-star-r1 --device=cpu --sizes=16 --steps=2
grep -q "ok (bit-exact)" "$t_tmp/out"
t_result $? "bench: the CPU rows are checked bit for bit"
# a description names one element type, and no empty field (every parser)
t_fails "bench: two element types" 2 "two element types" "$GK" bench stencil --stencil=3d-star-r1:f32:f64
t_fails "bench: an empty field" 2 "an empty field" "$GK" bench stencil --stencil=3d-star-r1::f32
t_fails "gktune: two element types" 2 "two element types" "$GKTUNE" --stencil=3d-star-r1:f64:f32
t_fails "stencil: two element types" 2 "two element types" "$GK" stencil --stencil=3d-star-r1:f32:f32 --size=8 \
  --steps=1 --output="$t_tmp/o.bin"
t_fails "stencil: an empty field" 2 "an empty field" "$GK" stencil --stencil=3d-star-r1: --size=8 --steps=1 \
  --output="$t_tmp/o.bin"
test ! -e "$t_tmp/o.bin"
t_result $? "stencil: no output file after a refused description"
t_fails "bench: --type and a description of the other type" 2 "two element types" \
  "$GK" bench stencil --stencil=3d-star-r1:f64 --type=f32
# --config with a description: checked against its rules whatever the device
t_fails "bench: a configuration the description's rules refuse" 2 "3d-star-r1-f64-zero.*no output for TSTEPS=3" \
  "$GK" bench stencil --stencil=3d-star-r1 --sizes=16 --config=DESIGN=2,TX=32,TY=4,RY=1,TSTEPS=3
t_fails "bench: a DESIGN=2 tile too small for a whole warp" 2 "needs NT=4 threads, not a multiple of 32" \
  "$GK" bench stencil --stencil=3d-star-r1 --sizes=16 --config=DESIGN=2,TX=4,TY=4,TSTEPS=1
t_ok "bench --device=cpu: DESIGN=2's NT follows from the tile when not named" \
  "$GK" bench stencil --stencil=3d-box-r2:f32 --device=cpu --sizes=16 --steps=1 --reps=1 \
  --config=DESIGN=2,TX=32,TY=16,RX=1,RY=4
grep -q "ok (bit-exact)" "$t_tmp/out"
t_result $? "bench --device=cpu: the tile 32x16 with RY=4 means NT=128 (before: refused, NT=256 being the default)"
t_fails "bench --device=cpu: a configuration the rules refuse" 2 "is for 3D descriptions only" \
  "$GK" bench stencil --stencil=2d-box-r1 --device=cpu --sizes=16 --config=DESIGN=2
t_ok "bench --device=cpu --stencil with a valid --config: runs, says it is not used" \
  "$GK" bench stencil --stencil=3d-star-r1 --device=cpu --sizes=16 --steps=2 --reps=1 --config=DESIGN=2,TSTEPS=3
grep -q "ok (bit-exact)" "$t_tmp/out" && grep -q "this run is on the CPU" "$t_tmp/err"
t_result $? "bench --device=cpu --config: bit-exact rows and the warning"
# --stencil=3d-box-r1 is a description like any other here: --config is the
# generated engine's (PF, TX, ...), not the classic 27-point kernel's (BX,
# ...), checked against each description's rules before any GPU work, and a
# refusal names the description (a comma list: the one that cannot run)
for dev in "--device=cpu" ""; do
  t_ok "bench --stencil=3d-box-r1 ${dev:-(device auto)}: a configuration only the generated engine has passes the check" \
    "$GK" bench stencil --stencil=3d-box-r1 $dev --sizes=16 --steps=2 --reps=1 --config=PF=3
  if [ -n "$dev" ] || "$GK" info 2>/dev/null | grep -q '^  none: '; then
    grep -q "this run is on the CPU" "$t_tmp/err" && ! grep -q "has no parameter" "$t_tmp/err"
    t_result $? "bench --stencil=3d-box-r1 ${dev:-(no usable GPU)} --config=PF=3: the CPU rows, with the warning"
  else
    t_skip "a usable GPU: the generated engine ran" "bench --stencil=3d-box-r1 --config=PF=3: the CPU rows"
  fi
  t_fails "bench --stencil=3d-box-r1 ${dev:-(device auto)}: PF out of range, the description named" 2 \
    "3d-box-r1-f64-zero.*PF=9 is outside \[0, 4\]" \
    "$GK" bench stencil --stencil=3d-box-r1 $dev --sizes=16 --config=PF=9
  t_fails "bench --stencil=3d-box-r1 ${dev:-(device auto)}: the classic kernel's BX is not the generated engine's" 2 \
    "3d-box-r1-f64-zero.*stencil_gen has no parameter 'BX'" \
    "$GK" bench stencil --stencil=3d-box-r1 $dev --sizes=16 --config=BX=8
  t_fails "bench --stencil=3d-box-r1 ${dev:-(device auto)}: DESIGN=2 with an impossible tile" 2 \
    "3d-box-r1-f64-zero.*TX=256 x TY=256 .* needs NT=16384 threads" \
    "$GK" bench stencil --stencil=3d-box-r1 $dev --sizes=16 --config=DESIGN=2,TX=256,TY=256
done
# ST as the kernel takes it: 1 with AC=0 only, 2 with AC=0 or 2, else the
# register queue (ST=0), whose rows in flight count (before: ST=2 with AC=1
# passed as if PF cost no registers, and was refused for rings it never has)
t_fails "stencil: ST=2 unused with AC=1, the PF rows counted" 2 \
  "2d-star-r2-f64-zero.*224 registers per lane > 192.*ST=2 is not used with AC=1" \
  "$GK" stencil --stencil=2d-star-r2 --device=cpu --size=64 --steps=1 --output="$t_tmp/st.bin" \
  --config=DESIGN=1,AC=1,ST=2,PF=4,PX=8,TSTEPS=2
test ! -e "$t_tmp/st.bin"
t_result $? "stencil: no output file after a refused configuration"
t_fails "stencil: ST=1 unused with AC=2" 2 "224 registers per lane > 192.*ST=1 is not used with AC=2" \
  "$GK" stencil --stencil=2d-star-r2 --device=cpu --size=64 --steps=1 --config=AC=2,ST=1,PF=4,PX=8,TSTEPS=2
t_ok "stencil --device=cpu: ST=2 with AC=1 has no ring to bound (NT=1024, PX=8, PF=4)" \
  "$GK" stencil --stencil=2d-star-r2 --device=cpu --size=64 --steps=1 --config=AC=1,ST=2,NT=1024,PX=8,PF=4,TSTEPS=1
t_fails "stencil: ST=2 with AC=2, the same rings refused" 2 "ST=2: rings of 327680 bytes > 48 KiB" \
  "$GK" stencil --stencil=2d-star-r2 --device=cpu --size=64 --steps=1 --config=AC=2,ST=2,NT=1024,PX=8,PF=4,TSTEPS=1
t_fails "stencil: ST=3 out of range" 2 "2d-star-r2-f64-zero.*ST=3 is outside \[0, 2\]" \
  "$GK" stencil --stencil=2d-star-r2 --device=cpu --size=64 --steps=1 --config=ST=3
t_fails "stencil: MB=9 out of range" 2 "MB=9 is outside \[0, 8\]" \
  "$GK" stencil --stencil=2d-star-r2 --device=cpu --size=64 --steps=1 --config=MB=9
# MB blocks of NT threads past an SM's 2048: ptxas would drop the bound
t_fails "stencil: MB=8 blocks of NT=512 threads refused" 2 \
  "2d-star-r2-f64-zero.*MB=8 blocks of NT=512 threads: 4096 threads > 2048 per SM" \
  "$GK" stencil --stencil=2d-star-r2 --device=cpu --size=64 --steps=1 --config=MB=8,NT=512
t_ok "stencil --device=cpu: MB=8 blocks of NT=256 threads (2048) pass" \
  "$GK" stencil --stencil=2d-star-r2 --device=cpu --size=64 --steps=1 --config=MB=8,NT=256
t_ok "stencil --device=cpu: MB is DESIGN=1's (DESIGN=0, MB=8, NT=1024 passes)" \
  "$GK" stencil --stencil=2d-star-r2 --device=cpu --size=64 --steps=1 --config=DESIGN=0,MB=8,NT=1024,TX=1024,ZC=4
t_fails "stencil: OX=2 out of range" 2 "2d-star-r2-f64-fixed.*OX=2 is outside \[0, 1\]" \
  "$GK" stencil --stencil=2d-star-r2:fixed --device=cpu --size=64 --steps=1 --config=OX=2
t_ok "stencil --device=cpu: OX is the fixed boundary's (OX=1 with the zero boundary passes)" \
  "$GK" stencil --stencil=3d-star-r2 --device=cpu --size=16 --steps=1 --config=DESIGN=2,OX=1
# XH (DESIGN=1's shared x halo): its range; the default of the 2D stars
# from radius 2, so a larger NT is refused for its shared memory even when
# XH is not named, and the refusal says what to change (XH=0 among them);
# unused with AC=2 (as ST); a 2D mask with a point off the centre column
# outside the centre row takes the boxes' defaults (XH=0), however few its
# points, and a mask with none the stars' (XH=1)
t_fails "stencil: XH=2 out of range" 2 "2d-star-r3-f32-fixed.*XH=2 is outside \[0, 1\]" \
  "$GK" stencil --stencil=2d-star-r3:fixed:f32 --device=cpu --size=64 --steps=1 --config=XH=2
t_fails "stencil: NT=512 on the float64 star r2 (default XH=1): its shared memory, and what to change" 2 \
  "2d-star-r2-f64-zero.*,XH=1) cannot run: XH=1: shared memory 288640 > 232448 bytes .*and the ST=2 rings; a smaller NT, TSTEPS or PX, or XH=0)" \
  "$GK" stencil --stencil=2d-star-r2:f64 --device=cpu --size=64 --steps=1 --config=NT=512
t_ok "stencil --device=cpu: NT=512,XH=0 on the float64 star r2 passes" \
  "$GK" stencil --stencil=2d-star-r2:f64 --device=cpu --size=64 --steps=1 --config=NT=512,XH=0
t_ok "stencil --device=cpu: NT=512 with AC=2 on the float64 star r2 passes (XH=1 unused with AC=2)" \
  "$GK" stencil --stencil=2d-star-r2:f64 --device=cpu --size=64 --steps=1 --config=NT=512,AC=2
printf '0 0 0.1 0 0\n0 0 0.1 0 0\n0.1 0.1 0.1 0.1 0.1\n0 0 0.1 0.1 0\n0 0 0 0 0\n' >"$t_tmp/xh-diag.txt"
printf '0 0 0.1 0 0\n0 0 0.1 0 0\n0.1 0.1 0.1 0.1 0.1\n0 0 0.1 0 0\n0 0 0 0 0\n' >"$t_tmp/xh-star.txt"
t_ok "stencil --device=cpu: a 2D mask of 9 points (4r+1), one diagonal, takes the boxes' defaults (NT=512 passes)" \
  "$GK" stencil --dims=2 --shape=mask --radius=2 --coeffs="$t_tmp/xh-diag.txt" --device=cpu --size=64x64 \
  --steps=1 --config=NT=512
t_fails "stencil: a 2D mask of 8 points, x offsets in the centre row only, takes the stars' (XH=1)" 2 \
  "2d-mask-r2-f64-zero.*XH=1: shared memory" \
  "$GK" stencil --dims=2 --shape=mask --radius=2 --coeffs="$t_tmp/xh-star.txt" --device=cpu --size=64x64 \
  --steps=1 --config=NT=512
t_fails "bench --stencil=A,B: a configuration the second description cannot run names it" 2 \
  "2d-star-r1-f64-zero.*DESIGN=2 .*3D" \
  "$GK" bench stencil --stencil=3d-box-r1,2d-star-r1 --config=DESIGN=2,PF=2
t_fails "bench --stencil=A,B: PF out of range names the first description" 2 \
  "3d-star-r1-f64-zero.*PF=9 is outside" \
  "$GK" bench stencil --stencil=3d-star-r1,3d-box-r1 --config=PF=9
t_fails "bench --stencil=3d-box-r1 --device=gpu: PF=9 refused before the GPU is looked for" 2 \
  "3d-box-r1-f64-zero.*PF=9 is outside" \
  "$GK" bench stencil --stencil=3d-box-r1 --device=gpu --sizes=16 --config=PF=9
if "$GK" info 2>/dev/null | grep -q '^  none: '; then
  t_fails "bench --stencil=3d-box-r1 --device=gpu --config=PF=3 without a GPU: no GPU, not a config error" 1 \
    "no GPU is usable" "$GK" bench stencil --stencil=3d-box-r1 --device=gpu --sizes=16 --config=PF=3
else
  t_skip "a usable GPU" "bench --stencil=3d-box-r1 --device=gpu --config=PF=3 without a GPU"
fi
# the CPU's rows are of one description: a list there says so (it was
# refused as one description with the boundary 'f32,2d-box-r1')
t_fails "bench --stencil=A,B --device=cpu: one description at a time on the CPU" 2 \
  "2d-star-r3:f32,2d-box-r1 on the CPU.*one description at a time" \
  "$GK" bench stencil --stencil=2d-star-r3:f32,2d-box-r1 --device=cpu --sizes=16
t_fails "bench --stencil=A,B --dev=cpu (abbreviated): one description at a time on the CPU" 2 \
  "3d-star-r1,3d-box-r1 on the CPU.*one description at a time" \
  "$GK" bench stencil --stencil=3d-star-r1,3d-box-r1 --dev=cpu --sizes=16
t_ok "bench: --stencil abbreviated (--sten), --device=cpu abbreviated (--dev)" \
  "$GK" bench stencil --sten=3d-star-r1 --dev=cpu --sizes=16 --steps=2 --reps=1
grep -q "ok (bit-exact)" "$t_tmp/out"
t_result $? "bench: the abbreviated options ran the CPU description rows"
"$GK" bench stencil --help >"$t_tmp/h" 2>&1 && grep -q -- "--stencil=DESC" "$t_tmp/h"
t_result $? "gk bench stencil --help names --stencil"
"$GK" stencil --help >"$t_tmp/h" 2>&1 && grep -q -- "--gpus=.*slabs (z planes; 2D: y rows)" "$t_tmp/h"
t_result $? "gk stencil --help: --gpus cuts a 2D grid into y rows (gk(1)), not z slabs"
# every parameter of the generated engine (an unknown one's refusal lists
# them) is named, in the engine's order, wherever they are listed: both
# --help texts, gk(1) (gk stencil --config, gk bench stencil --stencil, and
# a range for each), gk_stencil(3), gk/stencil.h, gk.stencil's docstring
"$GK" stencil --stencil=2d-star-r1 --device=cpu --size=8 --steps=1 --config=NOPE=1 >/dev/null 2>"$t_tmp/e"
plist=$(sed -n 's/.*(it has: \([A-Z0-9, ]*\))$/\1/p' "$t_tmp/e")
[ "$(echo "$plist" | tr ',' '\n' | grep -c .)" -ge 16 ] && case "$plist" in *", OX"*) true;; *) false;; esac
t_result $? "stencil: an unknown parameter's refusal lists the engine's parameters ($plist)"
norm() { sed 's/\\-/-/g' "$1" | tr '\n' ' ' | tr -s ' ' | sed 's/ and /, /g'; }
"$GK" stencil --help >"$t_tmp/help-stencil" 2>&1
"$GK" bench stencil --stencil=3d-star-r1 --help >"$t_tmp/help-bench-stencil" 2>&1
for f in "$t_tmp/help-stencil" "$t_tmp/help-bench-stencil" "$top_srcdir/doc/gk.1" \
  "$top_srcdir/doc/man3/gk_stencil.3" "$top_srcdir/include/gk/stencil.h" "$top_srcdir/python/gk/__init__.py"; do
  want=1 where=""; [ "${f##*/}" = gk.1 ] && want=2 where=" (gk stencil --config, gk bench stencil --stencil)"
  [ -n "$plist" ] && [ "$(norm "$f" | grep -oF -- "$plist" | wc -l)" -ge $want ]
  t_result $? "${f##*/}: lists every parameter of the engine$where"
done
ranges=$(norm "$top_srcdir/doc/gk.1" | sed -n 's/.*Ranges: TX \(.*\)(a tuned entry from before they existed.*/TX \1/p')
r=0
for p in $(echo "$plist" | tr -d ','); do echo "$ranges" | grep -qw -- "$p" || { r=1; t_diag "gk(1) gives no range for $p"; }; done
[ -n "$ranges" ] && [ -n "$plist" ] && [ $r = 0 ]
t_result $? "gk.1: a range for each of the engine's parameters"
# a tuned entry without OX runs OX=0, which is not the kernel it was tuned
# with: the fixed boundary's tiles start at r in y and z whatever the entry
# (gk(1) said "the kernel of before" for every parameter, OX included;
# norm has made " and " a comma)
old=$(norm "$top_srcdir/doc/gk.1" | sed -n 's/.*(a tuned entry from before they existed \([^;]*\);.*/\1/p')
case "$old" in *OX=0*"y, z start at r"*) true;; *) t_diag "gk(1) says: $old"; false;; esac
t_result $? "gk.1: a tuned entry without OX runs OX=0, its y and z tiles from r (not the kernel of before)"
if ! "$GK" info 2>/dev/null | grep -q '^  none: '; then
  export GK_CACHE_DIR="$t_tmp/cache"
  t_ok "bench: a small 2D and 3D run" "$GK" bench stencil --stencil=2d-box-r2:f32:periodic,3d-star-r2:fixed:f32 \
    --sizes=67 --steps=6 --reps=1
  grep -c "ok (bit-exact" "$t_tmp/out" | grep -qx 12 && ! grep -q "FAIL\|not run" "$t_tmp/out"
  t_result $? "bench: 12 rows (the 2D warp design T = 1..8, the 3D z-streaming design T = 1..4), each bit-exact"
  # gk stencil --config with a description: the configuration that ran is the one given
  t_ok "stencil --config with a description on the GPU, --check" "$GK" stencil --stencil=2d-star-r2:f32:periodic \
    --size=301x45 --steps=5 --check --device=gpu --verbose --config=DESIGN=0,TSTEPS=2,TX=64,ZC=9
  grep -q "config 2d-star-r2-f32-periodic-[0-9a-f]*: TX=64,TY=1,NT=128,ZC=9,TSTEPS=2,DESIGN=0,PX=4[,A-Z0-9=]* (--config: given by the caller" "$t_tmp/err" &&
    grep -q "bit for bit: ok" "$t_tmp/out"
  t_result $? "stencil --config on the GPU: ran as given (source --config), bit for bit against the CPU"
  t_ok "gktune --stencil: a short run" "$GKTUNE" --stencil=3d-star-r1:f32:fixed --stencil-size=48 --budget=20 -q
  grep -q "^3d-star-r1-f32-fixed " "$GK_CACHE_DIR"/stencil-gen-*.txt
  t_result $? "gktune --stencil: the entry is keyed by the shape, not the weights"
else
  t_ok "bench --stencil without --device and no usable GPU: the CPU rows" \
    "$GK" bench stencil --stencil=3d-star-r1 --sizes=16 --steps=2 --reps=1
  grep -q "ok (bit-exact)" "$t_tmp/out"
  t_result $? "bench --stencil, device auto: the CPU rows, bit-exact"
  t_fails "gktune --stencil without a usable GPU: one line, 'gktune:' once" 1 "^gktune: --stencil needs a GPU (" \
    "$GKTUNE" --stencil=2d-box-r3:fixed:f64 --stencil-size=64 --budget=1
  t_skip "no usable GPU" "stencil --config with a description on the GPU"
  t_skip "no usable GPU" "stencil --config on the GPU: ran as given"
  t_skip "no usable GPU" "bench: a small run"
  t_skip "no usable GPU" "bench: rows bit-exact"
  t_skip "no usable GPU" "gktune --stencil: a short run"
  t_skip "no usable GPU" "gktune --stencil: the entry"
fi
t_done
