#!/usr/bin/env bash
# GPU tests and captures (never run by CI): needs a CUDA machine with torch (2.11 + Triton 3.6 here).
#
#   tests/gpu/run_gpu_tests.sh OUTDIR [GROUP...]
#
# GROUPs: stale stale_extra cppwrap fxjson mutation cast cpuvocab forms overflow confirm localize timing (default: all; timing runs last, alone). Everything runs in parallel
# (MAXJ jobs at a time), each job bounded by `timeout`, the whole run by DEADLINE_S seconds.
# Results:
#   OUTDIR/fixtures/<name>/   captures made with tools/capture.py (copy the ones to keep into fixtures/)
#   OUTDIR/results/*.json     tools/confirm.py answers (copy into tests/gpu/results/: CI's tests load them)
#   OUTDIR/logs/<job>.log     each job's output; OUTDIR/logs/status.txt one "job rc=N seconds" line each
# Environment: PYTHON (python3), FIXTURES_IN (the repo's fixtures/), TOOLS (the repo's tools/),
#   MAXJ (14), DEADLINE_S (480), CAP_TIMEOUT (400 s per capture).
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
OUTDIR=${1:?usage: run_gpu_tests.sh OUTDIR [GROUP...]}
shift
GROUPS_WANTED=${*:-"stale cppwrap fxjson mutation confirm localize timing"}
PY=${PYTHON:-python3}
TOOLS=${TOOLS:-$ROOT/tools}
FIX=${FIXTURES_IN:-$ROOT/fixtures}
MAXJ=${MAXJ:-14}
DEADLINE_S=${DEADLINE_S:-480}
CAP_TIMEOUT=${CAP_TIMEOUT:-400}
mkdir -p "$OUTDIR/fixtures" "$OUTDIR/results" "$OUTDIR/logs"
OUTDIR=$(cd "$OUTDIR" && pwd)
START=$(date +%s)
SCRIPTS=$TOOLS/capture_scripts
# One compile thread per job: many jobs share the machine's cores.
CAP="$PY $TOOLS/capture.py --out $OUTDIR/fixtures --timeout $CAP_TIMEOUT --env TORCHINDUCTOR_COMPILE_THREADS=1"
export TORCHINDUCTOR_COMPILE_THREADS=1

want() { case " $GROUPS_WANTED " in *" $1 "*) return 0;; esac; return 1; }

job() {  # job NAME CMD...: run in the background, bounded by the time left before the deadline
  local name=$1; shift
  while [ "$(jobs -rp | wc -l)" -ge "$MAXJ" ]; do sleep 0.5; done
  local left=$(( DEADLINE_S - ($(date +%s) - START) ))
  if [ "$left" -le 10 ]; then echo "$name skipped (deadline)" >> "$OUTDIR/logs/status.txt"; return; fi
  ( t0=$(date +%s); timeout -k 40 "$left" bash -c "$*" > "$OUTDIR/logs/$name.log" 2>&1
    echo "$name rc=$? $(( $(date +%s) - t0 ))s" >> "$OUTDIR/logs/status.txt" ) &
}

confirm() {  # confirm NAME COMPILE_DIR DEVICE [extra confirm.py args]: graph-mode confirmation
  local name=$1 dir=$2 dev=$3; shift 3
  job "confirm_$name" "printf '%s' '{\"protocol\":1,\"compile_dir\":\"$dir\",\"finding\":{\"rule\":\"reduced-precision-scan\"},\"device\":\"$dev\",\"seeds\":[0,1,2],\"timeout_s\":300}' | $PY $TOOLS/confirm.py $* > $OUTDIR/results/confirm_$name.json"
}

confirm_script() {  # confirm_script NAME PROGRAM ARGS...: script-mode confirmation (stale-scalar findings)
  local name=$1; shift
  job "confirm_$name" "printf '%s' '{\"protocol\":1,\"finding\":{\"rule\":\"stale-scalar\"},\"device\":\"cuda\",\"timeout_s\":300}' | $PY $TOOLS/confirm.py --script $* > $OUTDIR/results/confirm_$name.json"
}

confirm_script_rule() {  # confirm_script_rule NAME RULE PROGRAM ARGS...: script mode for a finding of RULE
  local name=$1 rule=$2; shift 2
  job "confirm_$name" "printf '%s' '{\"protocol\":1,\"finding\":{\"rule\":\"$rule\"},\"device\":\"cuda\",\"timeout_s\":300}' | $PY $TOOLS/confirm.py --script $* > $OUTDIR/results/confirm_$name.json"
}

cdir() { ls -d "$FIX"/$1/torch_compile_debug/run_*/torchinductor/$2 2>/dev/null | head -1; }

nvidia-smi -L > "$OUTDIR/logs/gpu.txt" 2>&1
$PY -c 'import torch, triton; print(torch.__version__, torch.version.cuda, triton.__version__, torch.cuda.get_device_name(0))' >> "$OUTDIR/logs/gpu.txt" 2>&1

if want stale; then
  for v in clamp mul_clamp rms_norm layer_norm huber sdpa full addcdiv interp; do
    job "stale_$v" "$CAP --name stale_$v $SCRIPTS/stale_scalar.py $v cuda"
  done
  job stale_clamp_dyn "$CAP --name stale_clamp_dyn --env STALE_DYNAMIC=1 $SCRIPTS/stale_scalar.py clamp cuda"
  job stale_rms_norm_dyn "$CAP --name stale_rms_norm_dyn --env STALE_DYNAMIC=1 $SCRIPTS/stale_scalar.py rms_norm cuda"
  job stale_clamp_nocache "$CAP --name stale_clamp_nocache --env TORCHINDUCTOR_FORCE_DISABLE_CACHES=1 $SCRIPTS/stale_scalar.py clamp cuda"
  job stale_rms_norm_nocache "$CAP --name stale_rms_norm_nocache --env TORCHINDUCTOR_FORCE_DISABLE_CACHES=1 $SCRIPTS/stale_scalar.py rms_norm cuda"
  job stale_clamp_specialize "$CAP --name stale_clamp_specialize --env STALE_SPECIALIZE=1 $SCRIPTS/stale_scalar.py clamp cuda"
  job stale_clamp_repeat2 "$CAP --name stale_clamp_repeat2 --env STALE_REPEAT=2 $SCRIPTS/stale_scalar.py clamp cuda"
  job stale_clamp_cpu "$CAP --name stale_clamp_cpu $SCRIPTS/stale_scalar.py clamp cpu"
  # two processes sharing one Inductor cache: the second starts warm
  job stale_clamp_warm "$CAP --name stale_clamp_warm1 --env TORCHINDUCTOR_CACHE_DIR=$OUTDIR/shared_cache_clamp $SCRIPTS/stale_scalar.py clamp cuda; $CAP --name stale_clamp_warm2 --env TORCHINDUCTOR_CACHE_DIR=$OUTDIR/shared_cache_clamp $SCRIPTS/stale_scalar.py clamp cuda"
fi

if want stale || want stale_extra; then
  job stale_clamp_nograd "$CAP --name stale_clamp_nograd --env STALE_NOGRAD=1 $SCRIPTS/stale_scalar.py clamp cuda"
  job stale_mul_clamp_nograd "$CAP --name stale_mul_clamp_nograd --env STALE_NOGRAD=1 $SCRIPTS/stale_scalar.py mul_clamp cuda"
fi

if want confirm; then
  confirm s2_cuda_fwd "$(cdir s2_cuda 'model__*_forward_*')" cuda
  confirm s2_cuda_bwd "$(cdir s2_cuda 'model__*_backward_*')" cuda
  confirm_script stale_clamp_script "$SCRIPTS/stale_scalar.py" clamp cuda
  confirm_script stale_rms_norm_script "$SCRIPTS/stale_scalar.py" rms_norm cuda
  confirm_script seed1_script "$SCRIPTS/seed1.py" cuda 3
  confirm s2_cuda_emulate_fwd "$(cdir s2_cuda_emulate 'model__*_forward_*')" cuda
  confirm s2_cuda_emulate_bwd "$(cdir s2_cuda_emulate 'model__*_backward_*')" cuda
  confirm clean_resnet "$(cdir clean_resnet 'model__*_inference_*')" cuda
  for d in $(ls -d "$FIX"/clean_compiled_adam/torch_compile_debug/run_*/torchinductor/model__* 2>/dev/null); do
    confirm "clean_compiled_adam_$(basename "$d")" "$d" cuda
  done
  confirm s2_cpu_fwd "$(cdir s2_cpu 'model__*_forward_*')" cpu
  confirm s2_cpu_bwd "$(cdir s2_cpu 'model__*_backward_*')" cpu
  confirm prec_cumsum_bf16_fwd "$(cdir prec_cumsum_bf16 'model__*_forward_*')" cuda
  confirm prec_cumsum_fp32_fwd "$(cdir prec_cumsum_fp32 'model__*_forward_*')" cuda
  for v in huber sdpa layer_norm full mul_clamp; do
    confirm_script "stale_${v}_script" "$SCRIPTS/stale_scalar.py" $v cuda
  done
fi

if want fxjson; then
  job fx_json_s2_cuda "$CAP --name fx_json_s2_cuda --fx-json --output-code $SCRIPTS/seed2.py cuda"
fi

if want cppwrap; then
  for dev in cuda cpu; do
    job "s1_${dev}_cppwrap" "$CAP --name s1_${dev}_cppwrap --output-code --harvest-cpp-wrappers --env TORCHINDUCTOR_CPP_WRAPPER=1 $SCRIPTS/seed1.py $dev 3"
    job "s2_${dev}_cppwrap" "$CAP --name s2_${dev}_cppwrap --output-code --harvest-cpp-wrappers --env TORCHINDUCTOR_CPP_WRAPPER=1 $SCRIPTS/seed2.py $dev"
  done
fi

if want cpuvocab; then
  # C++ that Inductor writes beyond the seeds (issue 7): checks the hand readers of C++ against Clang
  for v in layer_norm var_mean arg_reduce softmax activations pointwise_math index_ops masked int_ops bf16_mix \
           half_mix cross_entropy pool_norm conv_block mlp_train attention scans sort_topk norms views nan_max \
           std_welford rand_ops; do
    job "cpu_vocab_$v" "$CAP --name cpu_vocab_$v $SCRIPTS/cpu_vocab.py $v"
  done
  for v in layer_norm softmax index_ops mlp_train attention std_welford masked; do
    job "cpu_vocab_${v}_dyn" "$CAP --name cpu_vocab_${v}_dyn --env VOCAB_DYNAMIC=1 $SCRIPTS/cpu_vocab.py $v"
  done
  for v in layer_norm arg_reduce index_ops mlp_train attention nan_max int_ops bf16_mix; do
    job "cpu_vocab_${v}_cppwrap" "$CAP --name cpu_vocab_${v}_cppwrap --output-code --harvest-cpp-wrappers --env TORCHINDUCTOR_CPP_WRAPPER=1 $SCRIPTS/cpu_vocab.py $v"
  done
fi

if want forms; then
  # The rarer kernel forms (tools/capture_scripts/kernel_forms.py) on cuda, for the kernel form census
  for v in atomic_add scatter_amax split_scan coop_reduction combo combo_blocks block_ptr tensor_desc device_assert \
           libdevice inline_asm transpose masked_tail; do
    job "forms_$v" "$CAP --name forms_$v $SCRIPTS/kernel_forms.py $v cuda"
  done
fi

if want overflow; then
  # Index arithmetic in 32 bits in Triton (pytorch#175966): arange(int64) * K folded into the kernel's
  # int32 index. The positive, its twin with the factor as an argument, a product that still fits
  # (2 x 1e9 < 2^31), and a long arange (1048575 x 4096 > 2^32); each confirmed by re-running the program.
  job overflow_cuda "$CAP --name overflow_cuda --output-code $SCRIPTS/index_overflow.py cuda 11 1e9"
  job overflow_cuda_safe "$CAP --name overflow_cuda_safe --output-code $SCRIPTS/index_overflow.py cuda 11 1e9 safe"
  job overflow_cuda_fits "$CAP --name overflow_cuda_fits --output-code $SCRIPTS/index_overflow.py cuda 3 1e9"
  job overflow_cuda_long "$CAP --name overflow_cuda_long --output-code $SCRIPTS/index_overflow.py cuda 1048576 4096"
  confirm_script_rule overflow_cuda_script index-overflow "$SCRIPTS/index_overflow.py" cuda 11 1e9
  confirm_script_rule overflow_cuda_safe_script index-overflow "$SCRIPTS/index_overflow.py" cuda 11 1e9 safe
  confirm_script_rule overflow_cuda_long_script index-overflow "$SCRIPTS/index_overflow.py" cuda 1048576 4096
fi

if want mutation; then
  for dev in cuda cpu; do
    sfx=$([ $dev = cpu ] && echo _cpu)
    for v in copy_flip foreach_flip add_t; do
      job "mut_${v}${sfx}" "$CAP --name mut_${v}${sfx} --output-code $SCRIPTS/mutation.py $v $dev"
      job "mut_${v}${sfx}_safe" "$CAP --name mut_${v}${sfx}_safe --output-code $SCRIPTS/mutation.py $v $dev safe"
    done
  done
fi

if want mutation || want cast; then
  for dev in cuda cpu; do
    sfx=$([ $dev = cpu ] && echo _cpu)
    job "mut_cast_bf16${sfx}" "$CAP --name mut_cast_bf16${sfx} --output-code $SCRIPTS/mutation.py cast_bf16 $dev"
    job "mut_cast_bf16${sfx}_safe" "$CAP --name mut_cast_bf16${sfx}_safe --output-code $SCRIPTS/mutation.py cast_bf16 $dev safe"
    job "mut_cast_bf16${sfx}_emulate" "$CAP --name mut_cast_bf16${sfx}_emulate --output-code --env MUT_EMULATE=1 $SCRIPTS/mutation.py cast_bf16 $dev"
  done
fi

if want localize; then
  # The requests `inductor-lint localize FIXTURE --device cuda --print-requests` makes (committed in
  # tests/gpu/requests/, paths relative to the repository root): one tools/localize.py run each, with
  # the fx_graph_runnable.py of the compile also run alone for the cost.
  mkdir -p "$OUTDIR/requests"
  for f in "$HERE"/requests/localize_*.json; do
    base=$(basename "$f" .json)
    $PY - "$f" "$OUTDIR/requests/$base" <<'PYEOF'
import json, sys
for i, r in enumerate(json.load(open(sys.argv[1]))):
    r["time_runnable"] = True
    json.dump(r, open("%s__%s.json" % (sys.argv[2], r["compile"]), "w"))
PYEOF
  done
  for r in "$OUTDIR"/requests/localize_*.json; do
    name=$(basename "$r" .json)
    job "$name" "cd $ROOT && $PY $TOOLS/localize.py --request $r > $OUTDIR/results/$name.json"
  done
fi

wait
if want timing; then
  # Cost of confirming a compile vs running its fx_graph_runnable.py alone, one at a time on an idle machine.
  MAXJ=1
  confirm timing_s2_cuda_fwd "$(cdir s2_cuda 'model__*_forward_*')" cuda --time-runnable
  confirm timing_s2_cuda_bwd "$(cdir s2_cuda 'model__*_backward_*')" cuda --time-runnable
  confirm timing_clean_resnet "$(cdir clean_resnet 'model__*_inference_*')" cuda --time-runnable
  wait
fi
rm -rf "$OUTDIR"/shared_cache_*
# What each capture measured, in one file.
for d in "$OUTDIR"/fixtures/*/; do
  n=$(basename "$d")
  { echo "=== $n"; grep -v '^config ' "$d/stdout.txt" 2>/dev/null | tail -40; } >> "$OUTDIR/logs/measured.txt"
done
echo "done in $(( $(date +%s) - START ))s" >> "$OUTDIR/logs/status.txt"
