#!/usr/bin/env bash
# Captures the project's CPU vocabulary with one torch into OUTDIR/<prefix><name>, with tools/capture.py.
# These are the version-matrix fixtures (fixtures/versions/torch-*.tar.xz, see its README.md): the
# same programs and arguments as the torch 2.11 CPU fixtures, so the readers meet each version's forms.
#
#   tests/live/capture_cpu_matrix.sh PYTHON OUTDIR PREFIX [NAME...]
#
# PYTHON: an interpreter with the torch to capture (a venv's bin/python). JOBS (2) captures at a time,
# one Inductor compile thread each. Prints one "name rc=N" line per capture.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
PY=${1:?usage: capture_cpu_matrix.sh PYTHON OUTDIR PREFIX [NAME...]}
OUT=${2:?}
PREFIX=${3:?}
shift 3
JOBS=${JOBS:-2}
S=$root/tools/capture_scripts
mkdir -p "$OUT"
# name | capture.py options | program and arguments
table="
s1_cpu||seed1.py cpu 3
s1_cpu_cppwrap|--env TORCHINDUCTOR_CPP_WRAPPER=1|seed1.py cpu 3
s2_cpu||seed2.py cpu
s2_cpu_cppwrap|--env TORCHINDUCTOR_CPP_WRAPPER=1|seed2.py cpu
mut_cast_bf16_cpu||mutation.py cast_bf16 cpu
mut_foreach_flip_cpu||mutation.py foreach_flip cpu
mut_foreach_flip_cpu_safe||mutation.py foreach_flip cpu safe
stale_clamp_cpu||stale_scalar.py clamp cpu
cpu_vocab_arg_reduce||cpu_vocab.py arg_reduce
cpu_vocab_attention||cpu_vocab.py attention
cpu_vocab_conv_block||cpu_vocab.py conv_block
cpu_vocab_cross_entropy||cpu_vocab.py cross_entropy
cpu_vocab_int_ops_cppwrap|--env TORCHINDUCTOR_CPP_WRAPPER=1|cpu_vocab.py int_ops
cpu_vocab_layer_norm_dyn|--env VOCAB_DYNAMIC=1|cpu_vocab.py layer_norm
cpu_vocab_masked||cpu_vocab.py masked
cpu_vocab_rand_ops||cpu_vocab.py rand_ops
cpu_vocab_softmax||cpu_vocab.py softmax
cpu_vocab_std_welford||cpu_vocab.py std_welford
clean_mlp||clean_mlp.py cpu
"
wanted=" $* "
echo "$table" | while IFS='|' read -r name opts prog; do
  [ -n "$name" ] || continue
  if [ $# -gt 0 ] && [[ "$wanted" != *" $name "* ]]; then continue; fi
  while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do sleep 0.5; done
  # shellcheck disable=SC2086
  ( "$PY" "$root/tools/capture.py" --python "$PY" --name "$PREFIX$name" --out "$OUT" --force --output-code \
        --env TORCHINDUCTOR_COMPILE_THREADS=1 $opts $S/$prog > "$OUT/$PREFIX$name.capture.log" 2>&1
    echo "$PREFIX$name rc=$?" ) &
done
wait
