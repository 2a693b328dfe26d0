#!/bin/bash
# A network round on the GPU machine this project is lent now and then (the `device`
# tool: 16 cores, one GPU, 10 minutes a command, 15 minutes a session, nothing fetched
# there). Two steps, one on each machine:
#
#   scripts/device_round.sh prepare          # here: builds, copies what travels into .dev/
#   bash scripts/device_round.sh run         # there (run with carry [".dev"]), as below
#
# `run` plays a new round of self-play games with the built-in network on all 16 cores
# (`hisha gensfen --nodes 5000`, SEED, GEN seconds, GENSFEN_EXTRA such as
# `--multipv-plies 8`), packs them (xz, files of at most 16 MB: what the tool brings
# back), exports them for the GPU trainer (EXPORT_EXTRA such as `--mirror`), fine-tunes
# the built-in network on them with scripts/train_gpu.py (FINETUNES: one recipe a
# line), and plays the first fine-tune against the built-in network at 20,000 nodes a
# move, 416 games on 16 cores (about 90 s), in the time left before LIMIT seconds.
# Everything lands in $OUT: the data, the networks, their training logs and the A/B
# games. Measured on 2026-11-30: 1,900 positions/s of 5,000-node games (578,801
# positions in 300 s), xz to 35%.
#
# Bring the data home into ../data/psv (cat the parts, keep it compressed; `xz -dc` it
# for train-nnue) and list the round in scripts/data_rounds.tsv (seed, positions), so
# that scripts/data_rounds.py can remake it from the repository alone.
set -u
D=$PWD/.dev

prepare() {
    cargo build --release -p hisha -p hisha-tools || exit 1
    mkdir -p "$D/tools" "$D/whl"
    grep -qx "/.dev/" .git/info/exclude 2>/dev/null || echo "/.dev/" >> .git/info/exclude
    cp target/release/hisha target/release/hisha-tools "$D/"
    cp ../shared/tools/match.py ../shared/tools/usilib.py "$D/tools/"
    # `check match` there, without ../shared and its virtual environment
    printf '#!/bin/sh\nshift\nexec python3 "$(dirname "$0")/tools/match.py" "$@"\n' > "$D/check"
    chmod +x "$D/check"
    ls "$D"/whl/cshogi-1.1.0-cp312-*.whl >/dev/null 2>&1 || python3 -m pip download --no-deps \
        --only-binary=:all: --python-version 3.12 --implementation cp --platform manylinux_2_28_x86_64 \
        -d "$D/whl" cshogi==1.1.0 || exit 1
    du -sh "$D"
}

run() {
    local t0 w=/tmp/round seed=${SEED:-212} gen=${GEN:-300} limit=${LIMIT:-585}
    t0=$(date +%s)
    elapsed() { echo $(( $(date +%s) - t0 )); }
    mkdir -p $w
    python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site "$D"/whl/*.whl \
        && export PYTHONPATH=/tmp/site
    nproc; nvidia-smi -L
    # shellcheck disable=SC2086
    timeout "$gen" "$D/hisha" gensfen --out $w/r.bin --nodes 5000 --seed "$seed" --threads "$(nproc)" --progress 60 \
        ${GENSFEN_EXTRA:-} 2>&1 | tail -3
    echo "gensfen: $(( $(stat -c %s $w/r.bin) / 40 )) positions at $(elapsed) s"
    xz -T0 -3 -c $w/r.bin | split -b 16000000 -d -a 1 - "$OUT/r$seed.bin.xz.part"
    # shellcheck disable=SC2086
    "$D/hisha-tools" train-nnue --k 964 --export $w/t $w/r.bin --out /dev/null ${EXPORT_EXTRA:-} 2>&1 | tail -1
    local k=0
    while read -r recipe; do
        [ -n "$recipe" ] || continue
        k=$((k + 1))
        # shellcheck disable=SC2086
        python3 scripts/train_gpu.py --data $w/t --out $w/c$k.nnue --init src/eval/nnue/hisha.nnue $recipe > "$OUT/c$k.txt" 2>&1
        tail -2 "$OUT/c$k.txt"
        cp $w/c$k.nnue "$OUT/"
    done <<< "${FINETUNES:-"--epochs 3 --lr 0.00005 --lambda 0.8"}"
    echo "trained at $(elapsed) s; A/B with $(( limit - $(elapsed) )) s left"
    SHOGI_CHECK=$D/check timeout $(( limit - $(elapsed) )) python3 scripts/ab_match.py --out $w/ab --games 416 \
        --runs 16 --seed 901 --options-a EvalFile=$w/c1.nnue "$D/hisha" "$D/hisha" 2>&1 | tail -2
    tar czf "$OUT/ab.tgz" -C $w ab
    echo "done at $(elapsed) s"
}

case "${1:-}" in
    prepare) prepare ;;
    run) run ;;
    *) sed -n 2,22p "$0"; exit 2 ;;
esac
