//! Ammunition over a fight: the weapon's CAP, the rounds left in it as part
//! of the fight's state, and reloading for its AP, timed as a player who
//! means to win times it.
//!
//! What the seed says of ammunition is two sentences. RoF: "Using a higher
//! RoF also uses up more bullets (CAP)." Actions in parallel: "E.g. while
//! reloading you can still give short commands to e.g. other party
//! members." It gives no weapon table, no reload cost and nothing of an
//! empty weapon, so (docs/DESIGN.md, Readings):
//! - each Attack roll uses one round ("a higher RoF also uses up more
//!   bullets": one a roll), and a weapon with no rounds left cannot attack;
//! - a reload is an action, so it costs AP ("Every Action in a Crisis
//!   requires Action Points"; "An action always costs at least 1 AP"):
//!   `reload_ap`, default 1, and it fills the weapon to its CAP;
//! - a turn is: reload or not, the one attack action (the policy's number
//!   of attacks, as the AP and the rounds left allow), then, having seen
//!   what the attacks did, reload or not. AP carry between turns as in the
//!   fight ("Any AP over 6 are lost").
//!
//! When to reload is the player's choice, so the default is the choice that
//! wins: both reload decisions are solved exactly, as a decision process
//! over (the target, the AP carried, the rounds left) that minimises the
//! expected turns to incapacitate the target. The target's state only
//! moves one way, so target states are solved most-hurt first; within one
//! target state the turns whose attacks all fail move the AP and rounds
//! deterministically, so a fixed choice makes each (AP, rounds) point lead
//! to one other: values under it are solved on that graph exactly (a cycle
//! `V = A + Q V` solved in closed form), improved until no choice changes
//! (policy iteration). `policy = "best"` takes, as without a CAP, the
//! number of attacks a turn (1 to RoF) with the fewest expected turns.
//!
//! The chain may now cycle through several (AP, rounds) points without
//! the target changing (fire, fire, reload), which the engine's
//! `absorb_monotone` cannot take; the exact values come from the same
//! graph solve, the turns shown one by one from the chain walked forward
//! turn by turn. The samplers play the chain as a `RepeatModel`, the
//! choices read from the solved tables.

use super::attack::{Attack, Fight, TURNS_SHOWN, fight_rule};
use super::rules::{MAX_AP, Target, affordable_attacks, ap_at_turn_start, attacks_cost};
use crate::dice::{BatchedRoller, Expectation, MetricSink, Replay, Roller, StateDist, Tally};
use crate::engine::repeat_model::{RepeatModel, Repeated};
use crate::systems::{MetricDef, MetricList, Model, ParamError, Sampler};
use std::collections::{BTreeMap, HashMap};

/// The seed's sections on ammunition and reloading.
pub(super) const CAP_SEED: &str = "RoF; Action Points; Actions in parallel";

/// Most (target state, AP carried, rounds left) points the reload policy is
/// solved over.
pub const MAX_RELOAD_STATES: u64 = 3_000_000;

/// Cap on dice paths for one turn's law.
const PATHS: usize = 1 << 16;

/// The weapon's ammunition.
#[derive(Clone, Copy, Debug)]
pub struct Ammo {
    /// Rounds a full load holds.
    pub cap: u8,
    /// AP a reload costs.
    pub reload_ap: u8,
    /// Rounds in the weapon when the fight starts.
    pub loaded: u8,
}

impl Ammo {
    /// The ammunition, `loaded` at most the CAP (default a full load).
    pub fn new(cap: u8, reload_ap: u8, loaded: Option<u8>) -> Result<Ammo, String> {
        let loaded = loaded.unwrap_or(cap);
        if loaded > cap {
            return Err(format!(
                "{loaded} rounds loaded, but the weapon's CAP is {cap}"
            ));
        }
        Ok(Ammo {
            cap,
            reload_ap,
            loaded,
        })
    }
}

/// The points (AP carried 0..=6, rounds left 0..=CAP) of one target state.
#[derive(Clone, Copy)]
struct Grid {
    cap: u8,
}

impl Grid {
    fn len(self) -> usize {
        (usize::from(MAX_AP) + 1) * (usize::from(self.cap) + 1)
    }
    fn at(self, carried: u8, rounds: u8) -> usize {
        usize::from(carried) * (usize::from(self.cap) + 1) + usize::from(rounds)
    }
    fn point(self, i: usize) -> (u8, u8) {
        let w = usize::from(self.cap) + 1;
        ((i / w) as u8, (i % w) as u8)
    }
}

/// The choices solved for one target state: reload before the attacks
/// (per point at the turn's start) and after them (per point the attacks
/// left), and the expected turns still to come from each point.
#[derive(Clone, Debug)]
struct Solved {
    before: Vec<bool>,
    after: Vec<bool>,
    turns: Vec<f64>,
}

/// A fight with ammunition: the fight's attack and policy, the weapon's
/// rounds, the solved reload choices.
pub struct Reloading {
    fight: Fight,
    ammo: Ammo,
    grid: Grid,
    solved: HashMap<Target, Solved>,
    /// Target states, each after every state it can lead to.
    order: Vec<Target>,
    /// The law of the target after `k` attacks from a state.
    laws: HashMap<(Target, u8), Vec<(Target, f64)>>,
}

/// The fight's state with the rounds in the weapon.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct LoadedState {
    /// The target.
    pub target: Target,
    /// AP carried into the next turn (during a turn: what the attacks
    /// leave).
    pub carried: u8,
    /// Rounds in the weapon.
    pub rounds: u8,
    /// Attacks planned this turn (0 between turns).
    pub planned: u8,
}

impl Reloading {
    /// A turn's attack action from `carried` AP and `rounds` left, reloading
    /// first or not: (attacks, AP left, rounds left), or `None` when the
    /// reload cannot be paid or the weapon is full.
    fn plan(&self, carried: u8, rounds: u8, reload: bool) -> Option<(u8, u8, u8)> {
        let attack = &self.fight.attack;
        let mut ap = ap_at_turn_start(carried);
        let mut rounds = rounds;
        if reload {
            if ap < self.ammo.reload_ap || rounds == self.ammo.cap {
                return None;
            }
            ap -= self.ammo.reload_ap;
            rounds = self.ammo.cap;
        }
        let wanted = self.fight.wanted.min(attack.rof).min(rounds);
        let k = affordable_attacks(ap, attack.attack_ap, wanted);
        Some((k, ap - attacks_cost(k, attack.attack_ap), rounds - k))
    }

    /// After the attacks, reloading or not: the point carried into the next
    /// turn, or `None` when the reload cannot be paid or the weapon is full.
    fn after(&self, carried: u8, rounds: u8, reload: bool) -> Option<(u8, u8)> {
        if !reload {
            Some((carried, rounds))
        } else if carried >= self.ammo.reload_ap && rounds < self.ammo.cap {
            Some((carried - self.ammo.reload_ap, self.ammo.cap))
        } else {
            None
        }
    }

    /// The target's law after `k` attacks of a turn from `t` (every planned
    /// attack is rolled, as in the fight).
    fn law(&mut self, t: Target, k: u8) -> Result<Vec<(Target, f64)>, ParamError> {
        if let Some(l) = self.laws.get(&(t, k)) {
            return Ok(l.clone());
        }
        let mut d = StateDist::certain(t);
        for i in 0..k {
            d = d
                .step(PATHS, |r: &mut Replay, s: &mut Target| {
                    self.fight.attack.resolve(i, r, s);
                })
                .map_err(|_| {
                    ParamError::new(
                        "cap",
                        "a turn's attacks roll too many dice paths to solve the reload choices",
                    )
                })?;
        }
        let l: Vec<(Target, f64)> = d.iter().map(|(s, p)| (*s, p)).collect();
        self.laws.insert((t, k), l.clone());
        Ok(l)
    }

    /// The point a turn's attacks leave, then the solved choice after them
    /// on target `t` (not over): the point the next turn starts from.
    fn next_point(&self, t: &Target, carried: u8, rounds: u8) -> (u8, u8) {
        let reload = self.solved[t].after[self.grid.at(carried, rounds)];
        self.after(carried, rounds, reload)
            .expect("a solved choice is possible")
    }

    /// Solves every target state reachable from `t` (those it leads to
    /// first), then `t`.
    fn solve(&mut self, t: Target) -> Result<(), ParamError> {
        if self.solved.contains_key(&t) || t.incapacitated() {
            return Ok(());
        }
        let kmax = self.fight.wanted.min(self.fight.attack.rof);
        let mut laws = Vec::new();
        for k in 0..=kmax {
            let law = self.law(t, k)?;
            for (u, _) in &law {
                if *u != t {
                    self.solve(*u)?;
                }
            }
            laws.push(law);
        }
        let g = self.grid;
        let n = g.len();
        // each point and choice before: (cost of the turn and of leaving t,
        // P(t unchanged), the point the attacks leave)
        let mut options: Vec<[Option<(f64, f64, usize)>; 2]> = vec![[None; 2]; n];
        for (i, opt) in options.iter_mut().enumerate() {
            let (c, r) = g.point(i);
            for (b, o) in opt.iter_mut().enumerate() {
                let Some((k, c1, r1)) = self.plan(c, r, b == 1) else {
                    continue;
                };
                let mut cost = 1.0;
                let mut stay = 0.0;
                for (u, p) in &laws[usize::from(k)] {
                    if *u == t {
                        stay += p;
                    } else if !u.incapacitated() {
                        let (c2, r2) = self.next_point(u, c1, r1);
                        cost += p * self.solved[u].turns[g.at(c2, r2)];
                    }
                }
                *o = Some((cost, stay, g.at(c1, r1)));
            }
        }
        // policy iteration, from "reload when empty, before attacking"
        let mut before: Vec<bool> = (0..n)
            .map(|i| g.point(i).1 == 0 && options[i][1].is_some())
            .collect();
        let mut after = vec![false; n];
        let mut turns = vec![0.0; n];
        for _ in 0..1000 {
            let (a, q, next): (Vec<f64>, Vec<f64>, Vec<usize>) = (0..n)
                .map(|i| {
                    let (cost, stay, post) =
                        options[i][usize::from(before[i])].expect("the choice kept is possible");
                    let (c1, r1) = g.point(post);
                    let (c2, r2) = self.after(c1, r1, after[post]).expect("possible");
                    (cost, stay, g.at(c2, r2))
                })
                .fold(
                    (vec![], vec![], vec![]),
                    |(mut a, mut q, mut x), (c, s, j)| {
                        a.push(c);
                        q.push(s);
                        x.push(j);
                        (a, q, x)
                    },
                );
            turns = solve_graph(1, &a, &q, &next);
            let better = |new: f64, old: f64| new < old - 1e-12 * (1.0 + old.abs().min(1e300));
            // greedy against the values of the choices held (so each
            // change improves: policy iteration), before the attacks first
            let held = |post: usize, reload: bool| -> f64 {
                let (c1, r1) = g.point(post);
                match self.after(c1, r1, reload) {
                    Some((c2, r2)) => turns[g.at(c2, r2)],
                    None => f64::INFINITY,
                }
            };
            let mut changed = false;
            let mut new_before = before.clone();
            for (i, opt) in options.iter().enumerate() {
                let value = |b: bool| -> f64 {
                    match opt[usize::from(b)] {
                        Some((cost, stay, post)) if stay > 0.0 => {
                            cost + stay * held(post, after[post])
                        }
                        Some((cost, _, _)) => cost,
                        None => f64::INFINITY,
                    }
                };
                if better(value(!before[i]), value(before[i])) {
                    new_before[i] = !before[i];
                    changed = true;
                }
            }
            for (p, a) in after.iter_mut().enumerate() {
                if better(held(p, !*a), held(p, *a)) {
                    *a = !*a;
                    changed = true;
                }
            }
            before = new_before;
            if !changed {
                break;
            }
        }
        self.solved.insert(
            t,
            Solved {
                before,
                after,
                turns,
            },
        );
        self.order.push(t);
        Ok(())
    }

    /// The expected turns from the start.
    fn mean_turns(&self) -> f64 {
        let t = self.fight.attack.fresh_target();
        if t.incapacitated() {
            return 0.0;
        }
        self.solved[&t].turns[self.grid.at(0, self.ammo.loaded)]
    }

    /// The exact values of the fight's own metrics and its turns, in the
    /// order of `metrics` (the chain's).
    fn exact_values(&self, metrics: &[MetricDef]) -> Vec<f64> {
        let own = self.fight.metrics().len();
        let g = self.grid;
        let n = g.len();
        let ended = |u: &Target| -> Vec<f64> {
            let mut e = Expectation::new(own);
            self.fight.record_target(u, &mut e);
            e.into_values()
        };
        // the fight's own metrics at its end, under the solved choices
        let mut values: HashMap<Target, Vec<f64>> = HashMap::new();
        for t in &self.order {
            let s = &self.solved[t];
            let mut a = vec![0.0; n * own];
            let mut q = vec![0.0; n];
            let mut next = vec![0; n];
            for i in 0..n {
                let (c, r) = g.point(i);
                let (k, c1, r1) = self.plan(c, r, s.before[i]).expect("solved");
                for (u, p) in &self.laws[&(*t, k)] {
                    if u == t {
                        q[i] += p;
                        continue;
                    }
                    let v = if u.incapacitated() {
                        ended(u)
                    } else {
                        let (c2, r2) = self.next_point(u, c1, r1);
                        values[u][g.at(c2, r2) * own..][..own].to_vec()
                    };
                    for (x, y) in a[i * own..][..own].iter_mut().zip(v) {
                        *x += p * y;
                    }
                }
                let (c2, r2) = self.next_point(t, c1, r1);
                next[i] = g.at(c2, r2);
            }
            values.insert(*t, solve_graph(own, &a, &q, &next));
        }
        let start = self.fight.attack.fresh_target();
        let mut out = vec![0.0; metrics.len()];
        let point = g.at(0, self.ammo.loaded);
        if start.incapacitated() {
            out[..own].copy_from_slice(&ended(&start));
        } else {
            out[..own].copy_from_slice(&values[&start][point * own..][..own]);
        }
        // the turns, one by one: the chain walked forward, in the states'
        // order (a hash map's order changes from run to run, and with it the
        // last bit of each sum: byte-identical CSV needs a fixed order)
        let mut live: BTreeMap<(Target, usize), f64> = BTreeMap::new();
        if !start.incapacitated() {
            live.insert((start, point), 1.0);
        }
        let mut over_at = [0.0; TURNS_SHOWN + 1];
        for over in over_at.iter_mut().skip(1) {
            let mut next: BTreeMap<(Target, usize), f64> = BTreeMap::new();
            for ((t, i), m) in &live {
                let (c, r) = g.point(*i);
                let (k, c1, r1) = self.plan(c, r, self.solved[t].before[*i]).expect("solved");
                for (u, p) in &self.laws[&(*t, k)] {
                    if u.incapacitated() {
                        *over += m * p;
                    } else {
                        let (c2, r2) = self.next_point(u, c1, r1);
                        *next.entry((*u, g.at(c2, r2))).or_insert(0.0) += m * p;
                    }
                }
            }
            live = next;
        }
        let position = |name: &str| metrics.iter().position(|d| d.name == name);
        if let Some(i) = position("mean_turns") {
            out[i] = self.mean_turns();
        }
        let mut shown = 0.0;
        for (k, p) in over_at.iter().enumerate().skip(1) {
            if let Some(i) = position(&format!("turns={k}")) {
                out[i] = *p;
            }
            shown += p;
        }
        if let Some(i) = position(&format!("turns>{TURNS_SHOWN}")) {
            out[i] = (1.0 - shown).max(0.0);
        }
        out
    }
}

/// Values on a graph where each point `i` costs `a[i]` (a vector of `m`)
/// and goes on to `next[i]` with probability `q[i]`: `V(i) = a(i) + q(i)
/// V(next(i))`. Each point has one successor, so every path ends in a
/// cycle, solved in closed form (`V = A + Q V` around it); a cycle that
/// never leaves (`Q = 1`) costs infinity.
fn solve_graph(m: usize, a: &[f64], q: &[f64], next: &[usize]) -> Vec<f64> {
    let n = q.len();
    let mut v = vec![0.0; n * m];
    // 0 not met, 1 on the path being followed, 2 solved
    let mut seen = vec![0u8; n];
    let step = |v: &mut Vec<f64>, y: usize| {
        for j in 0..m {
            let on = if q[y] == 0.0 {
                0.0
            } else {
                q[y] * v[next[y] * m + j]
            };
            v[y * m + j] = a[y * m + j] + on;
        }
    };
    for s in 0..n {
        if seen[s] == 2 {
            continue;
        }
        let mut path = Vec::new();
        let mut x = s;
        while seen[x] == 0 {
            seen[x] = 1;
            path.push(x);
            x = next[x];
        }
        if seen[x] == 1 {
            let from = path.iter().position(|&y| y == x).expect("on the path");
            let mut acc = vec![0.0; m];
            let mut prod = 1.0;
            for &y in &path[from..] {
                for (j, acc) in acc.iter_mut().enumerate() {
                    *acc += prod * a[y * m + j];
                }
                prod *= q[y];
            }
            for (j, acc) in acc.iter().enumerate() {
                v[x * m + j] = if prod >= 1.0 - 1e-15 {
                    f64::INFINITY
                } else {
                    acc / (1.0 - prod)
                };
            }
            seen[x] = 2;
            for &y in path[from + 1..].iter().rev() {
                step(&mut v, y);
                seen[y] = 2;
            }
            path.truncate(from);
        }
        for &y in path.iter().rev() {
            step(&mut v, y);
            seen[y] = 2;
        }
    }
    v
}

impl Repeated for Reloading {
    type State = LoadedState;
    const ROUND: &'static str = "turns";

    fn start(&self) -> LoadedState {
        LoadedState {
            target: self.fight.attack.fresh_target(),
            carried: 0,
            rounds: self.ammo.loaded,
            planned: 0,
        }
    }

    fn over(&self, s: &LoadedState) -> bool {
        s.target.incapacitated()
    }

    fn sub_steps(&self) -> usize {
        2 + usize::from(self.fight.attack.rof)
    }

    fn sub_step<R: Roller>(&self, i: usize, dice: &mut R, s: &mut LoadedState) {
        let rof = usize::from(self.fight.attack.rof);
        if i == 0 {
            let reload = self.solved[&s.target].before[self.grid.at(s.carried, s.rounds)];
            let (k, c1, r1) = self.plan(s.carried, s.rounds, reload).expect("solved");
            (s.planned, s.carried, s.rounds) = (k, c1, r1);
        } else if i <= rof {
            if i <= usize::from(s.planned) {
                // every planned attack is rolled, even after the target drops
                self.fight
                    .attack
                    .resolve((i - 1) as u8, dice, &mut s.target);
            }
        } else if !s.target.incapacitated() {
            (s.carried, s.rounds) = self.next_point(&s.target, s.carried, s.rounds);
        }
    }

    fn metrics(&self) -> &MetricList {
        self.fight.metrics()
    }

    fn record(&self, s: &LoadedState, sink: &mut impl MetricSink) {
        self.fight.record_target(&s.target, sink);
    }

    fn end_round(&self, s: &mut LoadedState) {
        s.planned = 0;
    }
}

/// A fight with ammunition, solved.
fn solved(attack: Attack, ammo: Ammo, wanted: u8) -> Result<Reloading, ParamError> {
    let mut r = Reloading {
        fight: fight_rule(attack, wanted),
        ammo,
        grid: Grid { cap: ammo.cap },
        solved: HashMap::new(),
        order: Vec::new(),
        laws: HashMap::new(),
    };
    r.solve(r.fight.attack.fresh_target())?;
    Ok(r)
}

/// The fight's model with ammunition: the chain for the samplers, its
/// exact values.
struct ReloadModel {
    chain: RepeatModel<Reloading>,
    exact: Vec<f64>,
}

impl Model for ReloadModel {
    fn metrics(&self) -> &[MetricDef] {
        self.chain.metrics()
    }

    fn plan(&self, trials: u64) {
        self.chain.plan(trials);
    }

    fn run_chunk(&self, roller: &mut BatchedRoller, trials: u64, tally: &mut Tally) {
        self.chain.run_chunk(roller, trials, tally);
    }

    fn sampler(&self) -> Sampler {
        self.chain.sampler()
    }

    fn run_reference(&self, roller: &mut BatchedRoller, trials: u64, tally: &mut Tally) {
        self.chain.run_trials(roller, trials, tally);
    }

    fn exact(&self) -> Option<Vec<f64>> {
        Some(self.exact.clone())
    }

    fn sample_one(&self, roller: &mut BatchedRoller, values: &mut [u64]) {
        self.chain.sample_one(roller, values);
    }
}

/// Builds the fight with ammunition under `policy` (one, all, best).
pub(super) fn build(
    attack: Attack,
    ammo: Ammo,
    policy: &str,
) -> Result<Box<dyn Model>, ParamError> {
    let points = attack.target_states() * (u64::from(MAX_AP) + 1) * (u64::from(ammo.cap) + 1);
    if points > MAX_RELOAD_STATES {
        return Err(ParamError::new(
            "cap",
            format!(
                "when to reload is solved exactly, over up to {points} (target state, AP, rounds) points here, more than the {MAX_RELOAD_STATES} it takes on: a smaller CAP, or fewer Health or Durability"
            ),
        ));
    }
    let rof = attack.rof;
    let candidates: Vec<u8> = match policy {
        "all" => vec![rof],
        "best" => (1..=rof).collect(),
        _ => vec![1],
    };
    let mut best: Option<(f64, Reloading)> = None;
    for wanted in candidates {
        let r = solved(attack.clone(), ammo, wanted)?;
        let turns = r.mean_turns();
        // ties keep the fewer attacks (strictly better only)
        if best
            .as_ref()
            .is_none_or(|(b, _)| turns < *b - 1e-12 * (1.0 + b.abs().min(1e300)))
        {
            best = Some((turns, r));
        }
    }
    let (turns, rule) = best.expect("at least one candidate");
    if !turns.is_finite() {
        let field = if attack.hittable { "skill" } else { "cover" };
        return Err(ParamError::new(
            field,
            "the fight never ends: no attack can land on the target (total cover, or a DL the roll cannot reach)",
        ));
    }
    let chain = RepeatModel::new(rule, TURNS_SHOWN);
    let exact = chain.rule().exact_values(chain.metrics());
    Ok(Box::new(ReloadModel { chain, exact }))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The seed's words this module rests on are the seed's.
    #[test]
    fn the_quoted_rules_are_the_seeds() {
        crate::systems::seed_text::assert_quoted(
            super::super::SEED,
            &[
                "Using a higher RoF also uses up more bullets (CAP).",
                "E.g. while reloading you can still give short commands to e.g. other party members.",
                "Every Action in a Crisis requires Action Points (AP).",
                "An action always costs at least 1 AP, unless an action specifically says otherwise.",
                "Any AP over 6 are lost, while Actions that require more than the remaining AP are disabled until enough AP are accumulated.",
            ],
        );
    }

    /// By hand: 0 -> 1 -> 2 -> 1 (a cycle of two), costs 1, 2, 3, staying
    /// with 1/2, 1/3, 1/4; 3 leaves at once (cost 5), 4 never leaves itself.
    /// V1 = 2 + V2/3, V2 = 3 + V1/4: V1 = (2 + 1) / (1 - 1/12) = 36/11,
    /// V2 = 3 + 9/11 = 42/11, V0 = 1 + 18/11 = 29/11.
    #[test]
    fn the_graph_solve_closes_cycles() {
        let a = [1.0, 2.0, 3.0, 5.0, 1.0];
        let q = [0.5, 1.0 / 3.0, 0.25, 0.0, 1.0];
        let next = [1, 2, 1, 3, 4];
        let v = solve_graph(1, &a, &q, &next);
        let want = [29.0 / 11.0, 36.0 / 11.0, 42.0 / 11.0, 5.0];
        for (got, want) in v.iter().zip(want) {
            assert!((got - want).abs() < 1e-12, "{got} vs {want}");
        }
        assert!(v[4].is_infinite());
        // two columns solve as two graphs
        let a2: Vec<f64> = a.iter().flat_map(|x| [*x, 2.0 * x]).collect();
        let v2 = solve_graph(2, &a2, &q, &next);
        for i in 0..4 {
            assert!((v2[2 * i] - v[i]).abs() < 1e-12);
            assert!((v2[2 * i + 1] - 2.0 * v[i]).abs() < 1e-12);
        }
    }

    fn rule(pairs: &[(&str, &str)], ammo: Ammo, wanted: u8) -> Reloading {
        use crate::systems::crisis::attack::FightParams;
        use crate::systems::{ParamGroup, Params};
        let p = FightParams::read(&Params::from_pairs(pairs).bound(FightParams::decls())).unwrap();
        solved(p.attack.attack(&Params::new()).unwrap(), ammo, wanted).unwrap()
    }

    /// The reload choices solved for the pistol of
    /// `tests/independent_crisis_ammo.rs` (CAP 1, reload 4 AP, shot 1 AP):
    /// empty with 3 AP carried, nothing can be done after the shot; at
    /// the start of a turn with 3 carried (6 AP) and empty, it reloads
    /// before shooting. And a 1-AP reload is made after the shot, from
    /// AP the cap would take anyway.
    #[test]
    fn the_pistol_reloads_when_it_wins() {
        let base = [("skill", "0"), ("damage", "4"), ("target_health", "4")];
        let r = rule(&base, Ammo::new(1, 4, None).unwrap(), 1);
        let t = r.fight.attack.fresh_target();
        let s = &r.solved[&t];
        assert!(s.before[r.grid.at(3, 0)]);
        assert!(!s.after[r.grid.at(3, 0)]);
        assert_eq!(r.plan(3, 0, true), Some((1, 1, 0)));
        assert_eq!(r.plan(0, 0, true), Some((0, 0, 1)));
        let r = rule(&base, Ammo::new(1, 1, None).unwrap(), 1);
        let s = &r.solved[&t];
        // turn 1 leaves 3 AP, empty: reloading now keeps 2, and 6 next turn
        assert!(s.after[r.grid.at(3, 0)] || s.before[r.grid.at(3, 0)]);
        assert!((r.mean_turns() - 12.0 / 11.0).abs() < 1e-12);
        assert!(Ammo::new(2, 1, Some(3)).is_err());
    }
}
