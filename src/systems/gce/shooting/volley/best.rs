//! `order = "best"`: the firing order that gives the best chance to take
//! the target out. The seed lets the player pick each next shooter after
//! seeing what the last one did ("Work through each of your Models one at
//! a time. Choose which Warrior is going to shoot ... Once this is done,
//! you move on to the next Warrior"), so the best order is a policy: for
//! each set of attackers still to fire and each condition the target is
//! in, which kind fires next. It is solved exactly, by dynamic programming
//! over (attackers left, the target's condition), then played: exactly
//! forward and by Monte Carlo alike, on the volley's own steps.

use super::{Volley, VolleyRule};
use crate::dice::{MetricSink, Replay, Roller, StateDist};
use crate::engine::{EXACT_WORK, Mechanic, MetricList};
use crate::systems::ParamError;
use crate::systems::attackers::MAX_ATTACKERS;
use crate::systems::gce::shooting::{Shooting, ShotState, Status};
use crate::systems::gce::warrior::Condition;
use foldhash::HashMap;

/// Most dice paths one attack step from one condition may have.
const PATHS: usize = 1 << 16;

/// How many of each kind of attacker are still to fire.
type Left = [u8; MAX_ATTACKERS];

/// Most (attackers left, target's condition) pairs the best order is
/// solved over: a table of this many chances, filled in well under a
/// second.
const MOST_CELLS: usize = 4_000_000;

/// Two orders whose chances differ by less than this are equal, and the
/// one listed first is taken: float noise does not pick the order.
const TIE: f64 = 1e-12;

/// The best order as a policy: which kind fires next, from each set of
/// attackers left and condition of the target the volley can reach.
struct Policy {
    /// Each condition the volley can leave the target in, numbered.
    conds: HashMap<Condition, usize>,
    /// A set of attackers left as a number: `sum left[k] * stride[k]`.
    stride: [usize; MAX_ATTACKERS],
    /// The kind to fire next, at `left * conds + condition`.
    next: Vec<u8>,
}

impl Policy {
    /// The kind to fire next with `left` still to fire at `target`.
    fn next(&self, left: &Left, target: &Condition) -> usize {
        let at: usize = left
            .iter()
            .zip(&self.stride)
            .map(|(&n, s)| usize::from(n) * s)
            .sum();
        usize::from(self.next[at * self.conds.len() + self.conds[target]])
    }
}

fn too_big(why: &str) -> ParamError {
    ParamError::new(
        "order",
        format!(
            "order = \"best\": {why}: fewer kinds of attacker or smaller counts, or order = \"listed\""
        ),
    )
}

/// From each condition (numbered), each kind's attack as the conditions it
/// ends in, numbered, with their probabilities.
type Laws = Vec<Vec<Vec<(usize, f64)>>>;

/// Each kind's attack from each condition the volley can reach, as the
/// conditions it ends in (numbered), found from the target's start.
fn attack_laws(volley: &Volley, kinds: &[&Shooting]) -> Result<(Vec<Condition>, Laws), ParamError> {
    let mut conds = vec![volley.starts];
    let mut laws: Laws = Vec::new();
    let mut work = 0u64;
    let mut c = 0;
    while c < conds.len() {
        let mut from_c = Vec::new();
        for shooting in kinds {
            let mut start = volley.start();
            start.target = conds[c];
            let mut d = StateDist::certain(start);
            for i in 0..Volley::attack_steps(shooting) {
                d = d
                    .step_counted(PATHS, &mut work, |r: &mut Replay, s| {
                        Volley::shoot_with(shooting, i, r, s)
                    })
                    .map_err(|_| too_big("one attack has too many dice paths to solve"))?;
            }
            if work > EXACT_WORK {
                return Err(too_big("the attacks have too many dice paths to solve"));
            }
            let mut law: Vec<(usize, f64)> = Vec::new();
            for (s, p) in d.iter() {
                let t = match conds.iter().position(|t| *t == s.target) {
                    Some(t) => t,
                    None => {
                        conds.push(s.target);
                        conds.len() - 1
                    }
                };
                match law.iter_mut().find(|(u, _)| *u == t) {
                    Some((_, q)) => *q += p,
                    None => law.push((t, p)),
                }
            }
            from_c.push(law);
        }
        laws.push(from_c);
        c += 1;
    }
    Ok((conds, laws))
}

/// The best order for `volley`, aiming at `aim` (Out of Action, or Down
/// for Down or Out of Action), with the chance it takes the target out.
/// Dynamic programming over (attackers left, the target's condition),
/// fewest left first: the chance from a pair is the best, over the kinds
/// left, of the chance after that kind's attack, weighted by its law.
fn solve(volley: &Volley, aim: Status) -> Result<(Policy, f64), ParamError> {
    let mut kinds: Vec<&Shooting> = Vec::new();
    for (kind, shooting) in &volley.shooters {
        if *kind == kinds.len() {
            kinds.push(shooting);
        }
    }
    let mut stride = [0; MAX_ATTACKERS];
    let mut lefts = 1usize;
    for (k, &n) in volley.counts.iter().enumerate() {
        stride[k] = lefts;
        lefts = lefts.saturating_mul(usize::from(n) + 1);
    }
    if lefts > MOST_CELLS {
        return Err(too_big(&format!(
            "the attackers can stand part-fired {lefts} ways, more than the {MOST_CELLS} it solves"
        )));
    }
    let (conds, laws) = attack_laws(volley, &kinds)?;
    let n = conds.len();
    if lefts.saturating_mul(n) > MOST_CELLS {
        return Err(too_big(&format!(
            "{lefts} ways the attackers can stand part-fired times {n} conditions of the target is more than the {MOST_CELLS} it solves"
        )));
    }
    let mut chance = vec![0.0; lefts * n];
    let mut next = vec![0u8; lefts * n];
    for at in 0..lefts {
        let has_left = |k: usize| (at / stride[k]) % (usize::from(volley.counts[k]) + 1) > 0;
        // taken out already, any order is as good: the first listed left
        let first = (0..volley.counts.len()).find(|&k| has_left(k)).unwrap_or(0) as u8;
        for c in 0..n {
            // nothing in a volley makes a fallen warrior stand
            if conds[c].status >= aim {
                chance[at * n + c] = 1.0;
                next[at * n + c] = first;
                continue;
            }
            let mut best = (0.0, None);
            for (k, law) in laws[c].iter().enumerate() {
                if !has_left(k) {
                    continue;
                }
                let after = (at - stride[k]) * n;
                let p: f64 = law.iter().map(|&(t, q)| q * chance[after + t]).sum();
                if best.1.is_none() || p > best.0 + TIE {
                    best = (p, Some(k as u8));
                }
            }
            chance[at * n + c] = best.0;
            next[at * n + c] = best.1.unwrap_or(0);
        }
    }
    let conds = conds.into_iter().enumerate().map(|(i, c)| (c, i)).collect();
    let policy = Policy {
        conds,
        stride,
        next,
    };
    Ok((policy, chance[(lefts - 1) * n]))
}

/// Where a volley in the best order stands: the shots so far, the
/// attackers still to fire and the kind firing now.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BestState {
    shot: ShotState,
    left: Left,
    kind: u8,
}

/// A volley fired in the best order: each attacker's turn to fire is a
/// slot as long as the longest attack; at a slot's start the policy picks
/// the kind, whose attack then plays the volley's own steps.
pub struct BestRule {
    rule: VolleyRule,
    policy: Policy,
    kinds: Vec<Shooting>,
    /// Steps of one slot: the longest attack's.
    width: usize,
    /// Slots: every attacker fires once.
    slots: usize,
}

impl BestRule {
    pub fn new(volley: Volley, aim: Status) -> Result<Self, ParamError> {
        let (policy, _) = solve(&volley, aim)?;
        let mut kinds: Vec<Shooting> = Vec::new();
        for (kind, shooting) in &volley.shooters {
            if *kind == kinds.len() {
                kinds.push(shooting.clone());
            }
        }
        let width = kinds.iter().map(Volley::attack_steps).max().unwrap_or(0);
        let slots = volley.shooters.len();
        Ok(BestRule {
            rule: VolleyRule::new(volley),
            policy,
            kinds,
            width,
            slots,
        })
    }
}

impl Mechanic for BestRule {
    type State = BestState;

    fn start(&self) -> BestState {
        let mut left = [0; MAX_ATTACKERS];
        left[..self.rule.volley.counts.len()].copy_from_slice(&self.rule.volley.counts);
        BestState {
            shot: self.rule.volley.start(),
            left,
            kind: 0,
        }
    }

    fn steps(&self) -> usize {
        self.slots * self.width + 2
    }

    fn step<R: Roller>(&self, i: usize, dice: &mut R, s: &mut BestState) {
        let fired = self.slots * self.width;
        if i == fired {
            return self.rule.volley.target().pinning_check(dice, &mut s.shot);
        }
        if i > fired {
            return self.rule.volley.target().settle(dice, &mut s.shot);
        }
        let own = i % self.width;
        if own == 0 {
            let k = self.policy.next(&s.left, &s.shot.target);
            s.left[k] -= 1;
            s.kind = k as u8;
        }
        let shooting = &self.kinds[usize::from(s.kind)];
        if own < Volley::attack_steps(shooting) {
            Volley::shoot_with(shooting, own, dice, &mut s.shot);
            s.shot.out_of_ammo = false;
        }
        if own + 1 == self.width {
            // who fired is not the target's concern once the attack is done
            s.kind = 0;
        }
    }

    fn metrics(&self) -> &MetricList {
        self.rule.metrics()
    }

    fn record(&self, s: &BestState, sink: &mut impl MetricSink) {
        self.rule.record_shot(&s.shot, sink);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Model, StepModel};
    use crate::systems::Params;

    fn volley_of(pairs: &[(&str, &str)]) -> Volley {
        let decls = (super::super::VOLLEY_SCENARIO.params)();
        let rules = &crate::systems::gce::RULES;
        let p = rules.resolve(&decls, &Params::from_pairs(pairs)).unwrap();
        let variants = Params::new().bound(rules.variant_decls());
        super::super::volley(&p.bound(decls), &variants).unwrap()
    }

    /// The policy's chance is what playing it gives, exactly.
    #[test]
    fn the_solved_chance_is_the_played_one() {
        let (_, solved) =
            solve(&volley_of(super::super::BOYZ_AND_NOB), Status::OutOfAction).unwrap();
        let rule =
            BestRule::new(volley_of(super::super::BOYZ_AND_NOB), Status::OutOfAction).unwrap();
        let model = StepModel::new(rule);
        let at = model
            .metrics()
            .iter()
            .position(|d| d.name == "p_out_of_action")
            .unwrap();
        let played = model.exact().unwrap()[at];
        assert!((solved - played).abs() < 1e-12, "{solved} against {played}");
    }

    /// Five kinds of twenty can stand part-fired 21^5 ways: more than the
    /// best order solves, refused by name rather than run for minutes.
    #[test]
    fn a_volley_too_big_to_solve_is_refused() {
        let names = ["a", "b", "c", "d", "e"];
        let mut pairs: Vec<(String, String)> = vec![("attackers".into(), names.join(","))];
        for n in names {
            for (k, v) in [
                ("count", "20"),
                ("weapon", "shoota"),
                ("bs", "3"),
                ("range", "8"),
            ] {
                pairs.push((format!("{n}.{k}"), v.into()));
            }
        }
        for (k, v) in [
            ("toughness", "4"),
            ("wounds", "1"),
            ("save", "6"),
            ("target_ws", "4"),
            ("target_bs", "4"),
            ("order", "best"),
        ] {
            pairs.push((k.into(), v.into()));
        }
        let pairs: Vec<(&str, &str)> = pairs
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        let err =
            crate::systems::build("gce", "volley", &Params::from_pairs(&pairs), &Params::new())
                .err()
                .expect("refused");
        assert_eq!(err.field, "order");
        assert!(err.message.contains("4084101 ways"), "{}", err.message);
    }
}
