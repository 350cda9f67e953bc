#!/usr/bin/env python3
"""krunch against vectorised numpy Monte Carlo loops of the same rules.

Usage: benches/numpy_peers.py KRUNCH_BINARY [--trials N] [--batch B] [--repeats R]

The peer is the Monte Carlo a competent data scientist would write in numpy:
whole arrays of trials at once (a batch of B trials per array), dice from
`numpy.random.default_rng(seed)` (PCG64) `integers`, no Python loop per
trial (the only Python loops run over the few dice positions of a trial,
e.g. the at most 6 shots of a full-auto burst, each step vectorised over the
batch). Two rules at their registry test points:

  1. krygothic/ranged, first test point: a pistol (3K2S1) at 4" by RC 3 at
     Body 3, armour 3, Speed 3.
  2. gce/shooting, second test point: an 'Eavy Shoota on Full Auto (2
     Sustained Fire dice), BS 2, at 20" (beyond its 18" long range), S4 D3
     Auto ammo at T4 W2 Sv4+, WS 1 BS 1, Initiative 3 with a friend near,
     firer T3 Sv6+.

For each: N trials, R times; best trials/s on one core (BLAS/OpenMP threads
pinned to 1; these elementwise loops use none anyway, and OPENBLAS_CORETYPE,
if set, does not matter to them). The estimates (all R x N trials) are held
to krunch's exact values (from `krunch run` of a spec written to a temporary
folder): |z| > 5 on any metric exits 1, the loop does not do the rule.

The GCE test point is out of range: every shot misses, so mean hits and
P(out of action) are exactly 0 there; only the to-hit dice (natural sixes
take Ammo Rolls), the Sustained Fire dice (jams take Ammo Rolls) and the
explosion's hit on the firer do anything. The same vectorised function is
therefore also held to krunch's exact values at three in-range points that
krunch can evaluate exactly (one Sustained Fire die at 18", the same in
cover (needs 7+: the 6-then-4+ chain), and both dice at a W1 WS2 BS2 target
with Damage 1 (Flesh Wounds that do not put it out)). And the test point
moved to 18" (in range, everything else the same) is timed as a third row:
krunch refuses its exact evaluation (past its work cap), so there the
estimates are held to krunch's own Monte Carlo estimates (z with both
standard errors).

krunch's own rate is `krunch run --threads 1` on a spec of the same single
point: the marginal trials/s between N/10 and N trials (best of R each),
which takes out the fixed cost of the exact evaluation and the report.
"""
import os

# One core: set before numpy is imported.
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import argparse
import csv
import math
import pathlib
import platform
import subprocess
import sys
import tempfile
import time

import numpy as np

Z_LIMIT = 5.0


# ---------------------------------------------------------------------------
# Kry-Gothic ranged fire (src/systems/krygothic/ranged.rs, benches/naive/krygothic.rs)
# ---------------------------------------------------------------------------

KRYGOTHIC_SPEC = """
title = "numpy_peer_krygothic"
system = "krygothic"
scenario = "ranged"
trials = 10000
seed = 1
[base]
weapon = "pistol"
firer_rc = 3
range = 4
target_body = 3
target_armour = 3
target_speed = 3
[[profile]]
name = "test_point_1"
"""

# The first test point resolved (Shot::resolve): RC 3 dice (4" is over the
# 2" short range: no +2), keep 3 (under the 6" long range: no -1Kx), to hit
# 5 (Speed 3 is not over 5), to wound Body 3 + armour 3 - K 2 = 4, S 1.
KRYGOTHIC_POINT = dict(dice=3, keep=3, to_hit=5, to_wound=4, cap=1)


def krygothic_ranged(rng, n, dice, keep, to_hit, to_wound, cap):
    """One standard attack for n trials: `dice` D6 to hit, passes kept up to
    `keep`; three sixes (any three dice of the roll) a critical pass that
    doubles the wounds, every die a 1 a critical fail (no wounds); each kept
    die rolls to wound, at most `cap` wounds. Targets 2..6 only (no 7+
    re-rolls, as at the test point). Returns sums for the metrics."""
    assert 2 <= to_hit <= 6 and 2 <= to_wound <= 6 and dice >= 3
    hit = rng.integers(1, 7, size=(dice, n), dtype=np.int8)
    passes = (hit >= to_hit).sum(axis=0, dtype=np.int8)
    sixes = (hit == 6).sum(axis=0, dtype=np.int8)
    ones = (hit == 1).sum(axis=0, dtype=np.int8)
    kept = np.minimum(passes, keep)
    critical_pass = sixes >= 3
    critical_fail = ones == dice
    k = min(keep, dice)
    wound = rng.integers(1, 7, size=(k, n), dtype=np.int8)
    # the i-th wound die counts when i < kept
    slot = np.arange(k, dtype=np.int8)[:, None]
    wound_passes = ((wound >= to_wound) & (slot < kept)).sum(axis=0, dtype=np.int8)
    wounds = np.minimum(wound_passes, cap)
    wounds <<= critical_pass.view(np.int8)  # doubled on a critical pass
    wounds[critical_fail] = 0
    return {
        "mean_wounds": (int(wounds.sum(dtype=np.int64)),
                        int((wounds.astype(np.int64) ** 2).sum())),
        "p_wound": np.count_nonzero(wounds),
        "mean_hits": (int(kept.sum(dtype=np.int64)),
                      int((kept.astype(np.int64) ** 2).sum())),
        "p_hit": np.count_nonzero(kept),
        "p_critical_pass": np.count_nonzero(critical_pass),
        "p_critical_fail": np.count_nonzero(critical_fail),
    }


# ---------------------------------------------------------------------------
# GCE shooting on Full Auto (src/systems/gce/{shooting,tables,warrior,weapon}.rs)
# ---------------------------------------------------------------------------

GCE_BASE = """
weapon = "eavy_shoota"
long_range = 18
short_hit = 0
long_hit = 0
strength = 4
damage = "D3"
ammo = "auto"
fire_mode = "full_auto"
bs = 2
range = 20
toughness = 4
wounds = 2
save = 4
target_ws = 1
target_bs = 1
firer_toughness = 3
firer_save = 6
friend_within_2in = true
target_initiative = 3
"""

# profile name -> (krunch spec lines, numpy parameters)
GCE_POINT = dict(
    sf_dice=2, bs=2, hit_modifier=0, range_modifier=None,  # 20" > 18": out of range
    strength=4, toughness=4, save=4, save_modifier=-2, damage="D3",
    ammo="auto", wounds=2, ws=1, bs_target=1, pin_immune=False,
    escape_initiative=3, firer_toughness=3, firer_save=6)

GCE_CHECKS = {
    "one_die_at_18": ("range = 18\nsf_fired = 1\n",
                      dict(GCE_POINT, sf_dice=1, range_modifier=0)),
    "one_die_at_18_in_cover": ("range = 18\nsf_fired = 1\ncover = \"in\"\n",
                               dict(GCE_POINT, sf_dice=1, range_modifier=0, hit_modifier=-2)),
    "two_dice_at_18_w1_ws2": ("range = 18\nwounds = 1\ndamage = \"1\"\n"
                              "target_ws = 2\ntarget_bs = 2\n",
                              dict(GCE_POINT, range_modifier=0, wounds=1, damage=1,
                                   ws=2, bs_target=2)),
}

WOUND_CHART = [
    [4, 5, 6, 6, 0, 0, 0, 0, 0, 0],
    [3, 4, 5, 6, 6, 0, 0, 0, 0, 0],
    [2, 3, 4, 5, 6, 6, 0, 0, 0, 0],
    [2, 2, 3, 4, 5, 6, 6, 0, 0, 0],
    [2, 2, 2, 3, 4, 5, 6, 6, 0, 0],
    [2, 2, 2, 2, 3, 4, 5, 6, 6, 0],
    [2, 2, 2, 2, 2, 3, 4, 5, 6, 6],
    [2, 2, 2, 2, 2, 2, 3, 4, 5, 6],
    [2, 2, 2, 2, 2, 2, 2, 3, 4, 5],
    [2, 2, 2, 2, 2, 2, 2, 2, 3, 4],
]


def wound_needed(strength, toughness):
    """D6 score to wound, None where the chart says N (tables::wound_needed)."""
    if strength == 0:
        return None
    need = WOUND_CHART[min(strength, 10) - 1][min(max(toughness, 1), 10) - 1]
    return need or None


def save_needed(save, modifier):
    """D6 score to save, None when no save is possible (Hit::save_target)."""
    if not save:
        return None
    need = save - modifier
    return max(need, 1) if need <= 6 else None


STANDING, FLESH, DOWN, OUT = 0, 1, 2, 3


def gce_full_auto(rng, n, sf_dice, bs, hit_modifier, range_modifier, strength,
                  toughness, save, save_modifier, damage, ammo, wounds, ws,
                  bs_target, pin_immune, escape_initiative, firer_toughness,
                  firer_save):
    """Full Auto for n trials, the steps of shooting.rs in its order:
    the Sustained Fire dice (faces 1,1,2,2,3,JAM), an Ammo Roll per jam,
    then each shot (a to-hit D6, 1 always misses, 7-9 needs a 6 then
    needed-3 on a further D6; a natural 6 takes an Ammo Roll and still hits;
    out of range the die is rolled and the shot misses), each hit pins and
    goes through Condition::take_hit unless the target is Out of Action
    (wound chart, save with the weapon's modifier, Damage, at 0 Wounds the
    Injury Table), then the escape from Pinning (Initiative test, a 6
    fails) and the Recovery roll that settles a Down target. Ammo 'auto'
    fails whenever tested and explodes on a 1; a score fails below it and
    explodes on a 1 then a further D6 below it. The first explosion hits
    the firer at Strength - 1 with the weapon's save modifier."""
    assert damage == "D3" or 1 <= damage <= 20
    max_shots = 3 * sf_dice
    i8 = np.int8
    # --- Sustained Fire dice and their jams' Ammo Rolls
    sf = rng.integers(1, 7, size=(sf_dice, n), dtype=i8)
    jam = sf == 6
    shots = np.where(jam, 0, (sf + 1) >> 1).sum(axis=0, dtype=i8)
    ammo_score = None if ammo == "auto" else int(ammo)
    ammo_dice = rng.integers(1, 7, size=(2 if ammo_score else 1, sf_dice, n), dtype=i8)
    if ammo_score is None:
        out_of_ammo = jam.any(axis=0)
        exploded = (jam & (ammo_dice[0] == 1)).any(axis=0)
    else:
        out_of_ammo = (jam & (ammo_dice[0] < ammo_score)).any(axis=0)
        exploded = (jam & (ammo_dice[0] == 1) & (ammo_dice[1] < ammo_score)).any(axis=0)

    # --- the dice one shot may use, only the columns this point needs
    needed = None if range_modifier is None else 7 - bs - (hit_modifier + range_modifier)
    wneed = wound_needed(strength, toughness)
    sneed = save_needed(save, save_modifier)
    can_hit = needed is not None and needed <= 9  # in range, and not past the 7+ chart
    cols = ["hit"]
    if can_hit and needed >= 7:
        cols.append("chain")
    cols.append("ammo")
    if ammo_score is not None:
        cols.append("ammo2")
    if can_hit and wneed is not None:
        cols.append("wound")
        if sneed is not None:
            cols.append("save")
        if damage == "D3":
            cols.append("damage")
        cols.append("injury")
    col = {c: i for i, c in enumerate(cols)}
    shot_dice = rng.integers(1, 7, size=(max_shots, len(cols), n), dtype=i8)

    hits = np.zeros(n, dtype=i8)
    wound_rolls = np.zeros(n, dtype=i8)
    dealt = np.zeros(n, dtype=i8)
    wounds_left = np.full(n, wounds, dtype=i8)
    ws_left = np.full(n, ws, dtype=i8)
    bs_left = np.full(n, bs_target, dtype=i8)
    status = np.zeros(n, dtype=i8)
    for k in range(max_shots):
        d = shot_dice[k]
        active = shots > k
        first = d[col["hit"]]
        six = active & (first == 6)
        # the Ammo Roll a natural 6 takes
        a = d[col["ammo"]]
        if ammo_score is None:
            out_of_ammo |= six
            exploded |= six & (a == 1)
        else:
            out_of_ammo |= six & (a < ammo_score)
            exploded |= six & (a == 1) & (d[col["ammo2"]] < ammo_score)
        if not can_hit:
            continue  # out of range, or beyond the 7+ chart: the die is rolled, the shot misses
        if needed <= 6:
            hit = active & (first != 1) & (first >= needed)
        else:
            hit = six & (d[col["chain"]] >= needed - 3)
        hits += hit
        if wneed is None:
            continue
        # Condition::take_hit: nothing more once Out of Action
        wounded = hit & (status != OUT) & (d[col["wound"]] >= wneed)
        wound_rolls += wounded
        unsaved = wounded if sneed is None else wounded & (d[col["save"]] < sneed)
        points = ((d[col["damage"]] + 1) >> 1) if damage == "D3" else i8(damage)
        dealt += np.where(unsaved, points, 0).astype(i8)
        wounds_left = np.where(unsaved, np.maximum(wounds_left - points, 0), wounds_left).astype(i8)
        injured = unsaved & (wounds_left == 0)
        roll = d[col["injury"]]
        flesh = injured & (roll <= 2)
        ws_left = np.where(flesh, np.maximum(ws_left - 1, 0), ws_left).astype(i8)
        bs_left = np.where(flesh, np.maximum(bs_left - 1, 0), bs_left).astype(i8)
        killed_by_flesh = flesh & (ws_left == 0) & (bs_left == 0)
        back_up = flesh & ~killed_by_flesh & (status < FLESH)
        status[back_up] = FLESH
        wounds_left[back_up] = 1
        down = injured & (roll >= 3) & (roll <= 5)
        status[down & (status < DOWN)] = DOWN
        status[killed_by_flesh | (injured & (roll == 6))] = OUT

    # --- the explosion's hit on the firer, pinning, settling Recovery
    extra = rng.integers(1, 7, size=(4, n), dtype=i8)
    fneed = wound_needed(max(strength - 1, 0), firer_toughness)
    fsave = save_needed(firer_save, save_modifier)
    if fneed is None:
        firer_wounded = np.zeros(n, dtype=bool)
    else:
        firer_wounded = exploded & (extra[0] >= fneed)
        if fsave is not None:
            firer_wounded &= extra[1] < fsave
    pinned = hits > 0 if not pin_immune else np.zeros(n, dtype=bool)
    standing = status < DOWN
    if escape_initiative is None:
        pinned_through = pinned & standing
    else:
        e = extra[2]
        pinned_through = pinned & standing & ((e == 6) | (e > escape_initiative))
    # a Down target rolls until it stands or goes Out of Action: one roll
    # among the faces 1, 2 (Flesh Wound) and 6 (Out of Action), read as a D3
    # from a D6 (warrior.rs, recover_until_settled)
    is_down = status == DOWN
    settle_flesh = ((extra[3] + 1) >> 1) <= 2
    settled_out = np.where(settle_flesh,
                           (np.maximum(ws_left - 1, 0) == 0) & (np.maximum(bs_left - 1, 0) == 0),
                           True)
    eventually_out = (status == OUT) | (is_down & settled_out)

    def mean(x):
        x64 = x.astype(np.int64)
        return (int(x64.sum()), int((x64 * x64).sum()))

    return {
        "mean_hits": mean(hits),
        "p_out_of_action": np.count_nonzero(status == OUT),
        "p_hit": np.count_nonzero(hits),
        "mean_wounds": mean(wound_rolls),
        "mean_damage": mean(dealt),
        "p_flesh_wound": np.count_nonzero(status == FLESH),
        "p_down": np.count_nonzero(is_down),
        "p_eventually_out_of_action": np.count_nonzero(eventually_out),
        "p_pinned_through_turn": np.count_nonzero(pinned_through),
        "p_out_of_ammo": np.count_nonzero(out_of_ammo),
        "p_weapon_explodes": np.count_nonzero(exploded),
        "p_firer_wounded": np.count_nonzero(firer_wounded),
    }


# ---------------------------------------------------------------------------
# krunch: exact values and its own rate
# ---------------------------------------------------------------------------

def spec(title, system, scenario, base, profiles):
    lines = [f'title = "{title}"', f'system = "{system}"', f'scenario = "{scenario}"',
             "trials = 10000", "seed = 1", "[base]", base.strip()]
    for name, extra in profiles:
        lines += ["[[profile]]", f'name = "{name}"', extra.strip()]
    return "\n".join(lines) + "\n"


def krunch_run(binary, spec_text, workdir, name, trials, threads=None):
    path = pathlib.Path(workdir) / f"{name}.toml"
    path.write_text(spec_text)
    cmd = [binary, "run", str(path), "--out", str(pathlib.Path(workdir) / "out"),
           "--trials", str(trials), "-q"]
    if threads:
        cmd += ["--threads", str(threads)]
    t = time.perf_counter()
    subprocess.run(cmd, check=True, capture_output=True, text=True)
    return time.perf_counter() - t, pathlib.Path(workdir) / "out" / name / "data.csv"


def krunch_exact(binary, spec_text, workdir, name):
    """{profile: {metric: exact}} from `krunch run`'s data.csv."""
    _, csv_path = krunch_run(binary, spec_text, workdir, name, 10000)
    exact = {}
    with open(csv_path, newline="") as f:
        for row in csv.DictReader(f):
            if row["exact"] != "":
                exact.setdefault(row["profile"], {})[row["metric"]] = float(row["exact"])
    return exact


def krunch_rate(binary, spec_text, workdir, name, trials, repeats):
    """Marginal trials/s of `krunch run --threads 1` between trials/10 and
    trials (best of `repeats` each): the exact evaluation and the report
    cost the same at both counts."""
    small = max(trials // 10, 1)
    t_small = min(krunch_run(binary, spec_text, workdir, name, small, 1)[0] for _ in range(repeats))
    big = trials
    while True:
        t_big = min(krunch_run(binary, spec_text, workdir, name, big, 1)[0] for _ in range(repeats))
        # at least a second between the two counts, else the rate is noise
        if t_big - t_small >= 1.0 or big >= 4_000_000_000:
            break
        big *= 4
    return (big - small) / max(t_big - t_small, 1e-9), big


# ---------------------------------------------------------------------------
# running and checking
# ---------------------------------------------------------------------------

def add(acc, part):
    for k, v in part.items():
        if isinstance(v, tuple):
            s, q = acc.get(k, (0, 0))
            acc[k] = (s + v[0], q + v[1])
        else:
            acc[k] = acc.get(k, 0) + int(v)


def run(loop, params, rng, trials, batch, acc):
    done = 0
    t = time.perf_counter()
    while done < trials:
        b = min(batch, trials - done)
        add(acc, loop(rng, b, **params))
        done += b
    return time.perf_counter() - t


def z_score(value, trials, exact):
    """(estimate, z) of a metric's accumulated sums against its exact value."""
    if isinstance(value, tuple):  # a mean: sum and sum of squares
        s, q = value
        est = s / trials
        var = max(q / trials - est * est, 0.0)
    else:  # a probability: a count of trials
        est = value / trials
        var = exact * (1.0 - exact)
    se = math.sqrt(var / trials)
    if se == 0.0:
        return est, (0.0 if abs(est - exact) < 1e-12 else math.inf)
    return est, (est - exact) / se


def report(label, acc, trials, exact, metrics, mc=None):
    """Estimates against krunch's exact values, or (mc: {metric:
    (estimate, standard error)}) against its Monte Carlo estimates with
    both standard errors."""
    ok = True
    kind = "krunch exact" if mc is None else "krunch Monte Carlo"
    print(f"| {label} | metric | numpy estimate | {kind} | z |")
    print("|---|---|---:|---:|---:|")
    for m in metrics:
        if mc is None:
            est, z = z_score(acc[m], trials, exact[m])
            theirs = exact[m]
        else:
            theirs, k_se = mc[m]
            est, _ = z_score(acc[m], trials, theirs)
            if isinstance(acc[m], tuple):
                s, q = acc[m]
                var = max(q / trials - est * est, 0.0)
            else:
                var = est * (1.0 - est)
            se = math.sqrt(var / trials + k_se ** 2)
            z = 0.0 if se == 0.0 and est == theirs else (est - theirs) / se if se else math.inf
        bad = abs(z) > Z_LIMIT
        ok &= not bad
        print(f"| | {m} | {est:.6f} | {theirs:.6f} | {z:+.2f}{' FAIL' if bad else ''} |")
    return ok


def krunch_mc(csv_path, profile):
    """{metric: (estimate, standard error)} from a data.csv's value and its
    95% interval."""
    out = {}
    with open(csv_path, newline="") as f:
        for row in csv.DictReader(f):
            if row["profile"] == profile:
                se = (float(row["ci_high"]) - float(row["ci_low"])) / (2 * 1.959964)
                out[row["metric"]] = (float(row["value"]), se)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("krunch")
    ap.add_argument("--trials", type=int, default=10_000_000, help="trials per timed run")
    ap.add_argument("--batch", type=int, default=1_000_000, help="trials per array")
    ap.add_argument("--repeats", type=int, default=3, help="timed runs (best is reported)")
    ap.add_argument("--check-trials", type=int, default=4_000_000,
                    help="trials at each extra in-range GCE point (checked only)")
    ap.add_argument("--seed", type=int, default=20261126)
    args = ap.parse_args()
    binary = str(pathlib.Path(args.krunch).resolve())

    print(f"numpy {np.__version__} (PCG64 via default_rng), Python {platform.python_version()}, "
          f"{platform.machine()}; OMP_NUM_THREADS={os.environ['OMP_NUM_THREADS']}, "
          f"OPENBLAS_NUM_THREADS={os.environ['OPENBLAS_NUM_THREADS']}, "
          f"OPENBLAS_CORETYPE={os.environ.get('OPENBLAS_CORETYPE', '(unset)')}")
    print(f"{args.repeats} x {args.trials:,} trials per rule, arrays of {args.batch:,}\n")

    ok = True
    rows = []
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="krunch-numpy-peers-") as work:
        # exact values
        kg_exact = krunch_exact(binary, KRYGOTHIC_SPEC, work, "numpy_peer_krygothic")["test_point_1"]
        gce_profiles = [("test_point_2", "")] + [(k, v[0]) for k, v in GCE_CHECKS.items()]
        gce_spec = spec("numpy_peer_gce", "gce", "shooting", GCE_BASE, gce_profiles)
        gce_exact = krunch_exact(binary, gce_spec, work, "numpy_peer_gce")
        missing = [p for p, _ in gce_profiles if p not in gce_exact]
        if missing:
            print(f"krunch gave no exact values for {missing}", file=sys.stderr)
            sys.exit(1)

        benches = [
            ("krygothic/ranged, test point 1", krygothic_ranged, KRYGOTHIC_POINT, kg_exact,
             ["mean_wounds", "p_wound", "mean_hits", "p_hit", "p_critical_pass", "p_critical_fail"],
             KRYGOTHIC_SPEC, "numpy_peer_krygothic"),
            ("gce/shooting full auto, test point 2", gce_full_auto, GCE_POINT,
             gce_exact["test_point_2"],
             ["p_out_of_action", "mean_hits", "p_out_of_ammo", "p_weapon_explodes",
              "p_firer_wounded", "p_pinned_through_turn", "p_eventually_out_of_action"],
             spec("numpy_peer_gce_tp2", "gce", "shooting", GCE_BASE, [("test_point_2", "")]),
             "numpy_peer_gce_tp2"),
            # the test point moved into range (18"): the burst does its work;
            # krunch has no exact value here (its evaluation passes the work
            # cap), so the estimates are held to krunch's own Monte Carlo
            ("gce/shooting full auto, test point 2 at 18\" (in range)", gce_full_auto,
             dict(GCE_POINT, range_modifier=0), None,
             ["p_out_of_action", "mean_hits", "mean_damage", "p_down",
              "p_eventually_out_of_action", "p_pinned_through_turn", "p_out_of_ammo",
              "p_weapon_explodes", "p_firer_wounded"],
             spec("numpy_peer_gce_at_18", "gce", "shooting", GCE_BASE, [("at_18", "range = 18")]),
             "numpy_peer_gce_at_18"),
        ]
        for i, (label, loop, params, exact, metrics, kspec, kname) in enumerate(benches):
            rng = np.random.default_rng(args.seed + i)
            loop(rng, min(args.batch, 10_000), **params)  # warm-up
            acc, times = {}, []
            for _ in range(args.repeats):
                times.append(run(loop, params, rng, args.trials, args.batch, acc))
            total = args.repeats * args.trials
            rate = args.trials / min(times)
            k_rate, k_trials = krunch_rate(binary, kspec, work, kname, args.trials, args.repeats)
            if exact is None:  # the data.csv of krunch's last (largest) timed run
                mc = krunch_mc(pathlib.Path(work) / "out" / kname / "data.csv", "at_18")
                ok &= report(label, acc, total, None, metrics, mc=mc)
            else:
                ok &= report(label, acc, total, exact, metrics)
            rows.append((label, rate, min(times), k_rate, k_trials))
            print(f"\n{total:,} trials; numpy best {min(times):.2f} s for {args.trials:,}: "
                  f"{rate / 1e6:.2f} M trials/s\n")

        for j, (name, (_, params)) in enumerate(GCE_CHECKS.items()):
            rng = np.random.default_rng(args.seed + 100 + j)
            acc = {}
            run(gce_full_auto, params, rng, args.check_trials, args.batch, acc)
            ok &= report(f"gce/shooting full auto, {name} (check only)", acc, args.check_trials,
                         gce_exact[name],
                         ["mean_hits", "p_out_of_action", "p_hit", "mean_wounds", "mean_damage",
                          "p_flesh_wound", "p_down", "p_eventually_out_of_action",
                          "p_pinned_through_turn", "p_out_of_ammo", "p_weapon_explodes",
                          "p_firer_wounded"])
            print()
        elapsed = time.perf_counter() - t0

    print("| rule | numpy trials/s (one core, best) | krunch run --threads 1, marginal trials/s | krunch / numpy |")
    print("|---|---:|---:|---:|")
    for label, rate, _, k_rate, k_trials in rows:
        print(f"| {label} | {rate / 1e6:.2f} M | {k_rate / 1e6:.1f} M (up to {k_trials:,} trials) "
              f"| {k_rate / rate:.1f}x |")
    print(f"\nnumpy {np.__version__}; {elapsed:.0f} s in all")
    if not ok:
        print(f"an estimate is more than {Z_LIMIT} standard errors from krunch's exact value: "
              "the loop does not do the rule", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
