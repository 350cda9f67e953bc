//! A squad under fire, turn after turn: N shooters fire up to 2 AP a turn
//! into a squad (with or without a Hero); a missile first locks on (a
//! failed lock-on fires nothing); each attack's D6 picks the Hero
//! on a 6; a blast or template also covers other troopers of the squad,
//! each rolling its own D20 against the chart's second value (or, variant
//! `blast_roll = "once"`, read off the firing's D20); the defender
//! allocates Wounded and Dead results; Necrons
//! self-heal their wounded and stand back up on a repair roll; morale is
//! read at the end of each turn (shaken at 50% dead or wounded, running, or
//! for Necrons phasing out, below 35% of the squad left standing).
//!
//! Exact by dynamic programming over counts (healthy / wounded / destroyed
//! / dead per squad, never per model). The shooters' side does not depend
//! on the squad (the squad does not fire back), and a D20 that is not a 20
//! is uniform on 1-19 whatever came before, so a turn is: the law of how
//! many D20s that were not a 20 the shooters roll (and which weapons are
//! left jammed or lost), then that many draws of one firing's law on the
//! squad (the target's D20, then the others under the blast one by one).
//! The reference sampler plays the real dice, shooter by shooter, shot by
//! shot; the fast sampler walks the same steps (the repair rolls, each
//! shooter's turn, the turn's end, keyed by the squad and shooters' state)
//! a turn a draw of the turn's law composed from those steps' faces
//! ([`StateLaws`]), or, for a lone turn, each shooter's dice drawn at once
//! ([`StateFaces`]); the conformance suite checks they agree with the
//! exact side.

use super::chart::{Effect, effect_of_hit};
use super::fire::{Firer, Roll, read_d20};
use super::hit_allocation::at_hero;
use super::necron_repair::repair_target;
use super::shared_params::ShotParams;
use super::shooting::BlastRoll;
use crate::dice::{
    BatchedRoller, Expectation, Metric, MetricSink, Roller, Tally, Times, binomial_pmf,
};
use crate::engine::stages::{Digits, STATE_FACES, STATE_LAWS, StateFaces, StateLaws, Steps};
use crate::engine::{EXACT_WORK, NoExact};
use crate::systems::Variant;
use crate::systems::{Given, Opt};
use crate::systems::{
    MetricDecl, MetricDef, MetricList, Model, ParamError, ParamGroup, Params, Sampler, TrialValues,
};
use crate::systems::{Refusal, Scenario};
use std::collections::BTreeMap;

/// The `squad_under_fire` scenario: what it asks, its parameters and metrics, its
/// builder, test points, bad inputs and naive loop.
pub const SQUAD_UNDER_FIRE_SCENARIO: Scenario = Scenario {
    name: "squad_under_fire",
    about: "shooters fire into a squad turn after turn: allocation, effects, Necron repair, shaken and broken by turn",
    seed_section: "RANGED COMBAT WEAPONS FACTOR CHART; EFFECT OF HIT CHART; WOUND ALLOCATION; UNIT COHESION; MORALE; NECRON SPECIAL RULES",
    params: SquadParams::decls,
    metrics: metric_catalog,
    build,
    variants: &["blast_roll", "wound_allocation"],
    test_points: TEST_POINTS,
    refusals: &[
        Refusal {
            what: "a squad beyond the weapon's range",
            point: 0,
            set: &[("range", "60")],
            unset: &[],
            field: "range",
            words: &["maximum range of 24"],
        },
        Refusal {
            what: "more troopers wounded than the squad has",
            point: 5,
            set: &[("troopers_wounded", "8")],
            unset: &[],
            field: "troopers_wounded",
            words: &["8 troopers wounded", "7 troopers"],
        },
        Refusal {
            what: "Necrons wounded at the start of a turn",
            point: 6,
            set: &[("troopers_wounded", "1")],
            unset: &[],
            field: "troopers_wounded",
            words: &["self heal", "none wounded"],
        },
        Refusal {
            what: "a squad strength below the figures fired at",
            point: 5,
            set: &[("squad_strength", "7")],
            unset: &[],
            field: "squad_strength",
            words: &["fewer than the 8 figures"],
        },
        Refusal {
            what: "a squad already running before the first turn",
            point: 5,
            set: &[("squad_strength", "23")],
            unset: &[],
            field: "squad_strength",
            words: &["below 35%", "must run away"],
        },
    ],
    naive: crate::systems::skirmish20::naive::SQUAD_UNDER_FIRE,
};

/// The Hero's state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Hero {
    /// No Hero in the squad.
    Absent,
    /// Unhurt.
    Healthy,
    /// Wounded.
    Wounded,
    /// A Necron destroyed this turn who may yet repair.
    Destroyed,
    /// Dead for good.
    Dead,
}

impl Hero {
    pub(super) fn standing(self) -> bool {
        matches!(self, Hero::Healthy | Hero::Wounded)
    }
}

/// The squad, by counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SquadState {
    pub(super) healthy: u8,
    pub(super) wounded: u8,
    /// Necrons destroyed this turn who roll to repair next turn.
    pub(super) destroyed: u8,
    pub(super) dead: u8,
    pub(super) hero: Hero,
    pub(super) shaken: bool,
    pub(super) broken: bool,
}

impl SquadState {
    pub(super) fn troopers_standing(&self) -> u8 {
        self.healthy + self.wounded
    }

    pub(super) fn standing(&self) -> u8 {
        self.troopers_standing() + u8::from(self.hero.standing())
    }
}

/// The shooters between turns: weapons still jammed, weapons lost.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Shooters {
    pub(super) jammed: u8,
    pub(super) lost: u8,
}

/// What a shooter's weapon is after its turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum After {
    Ready,
    Jammed,
    Lost,
}

/// The scenario.
#[derive(Clone, Debug)]
pub struct Squad {
    /// Shooters, each with this weapon and these AP.
    pub shooters: u8,
    /// One shooter.
    pub firer: Firer,
    /// The chart value against the squad's armour (`None` = X).
    pub value: Option<u8>,
    /// The value against others under a blast (the second value, or the
    /// one value: "use the one single value against all targets under the
    /// blast radius").
    pub others_value: Option<u8>,
    /// The missile's lock-on number against the squad's armour ("Roll the
    /// L-xx number or less on 1D20 to lock on"): a firing that fails to
    /// lock on spends its AP and fires nothing, so cannot jam.
    pub lock_on: Option<u8>,
    /// Other troopers wholly under the blast or template, each firing.
    pub others_full: u8,
    /// Other troopers partly under it.
    pub others_partly: u8,
    /// A flamer's template: those partly under are hit automatically (a
    /// blast covers them on a D6 4+).
    pub template: bool,
    /// "Only roll once per weapon firing": the others are read off the
    /// firing's D20.
    pub one_roll: bool,
    /// Sum of the ranged modifiers.
    pub modifier: i32,
    /// Common troopers in the squad.
    pub troopers: u8,
    /// A Hero leads them.
    pub hero: bool,
    /// A Necron squad: no Duck Backs, self-heal, repair, phase out, no 50% rule.
    pub necrons: bool,
    /// Within 12" of a Lord or Tomb Spider: repair on 4+.
    pub near_lord: bool,
    /// Wounded results onto wounded figures first.
    pub stack_wounds: bool,
    /// Turns played.
    pub turns: u32,
    /// The squad's initial strength its morale is read against (troopers
    /// and Hero, or more for a squad that starts with casualties: "Count
    /// it as 8 men left out of a 10 man squad").
    pub strength: u32,
    /// Troopers already wounded at the first turn.
    pub wounded_at_start: u8,
}

/// Every metric of the scenario.
pub fn metric_catalog() -> Vec<MetricDecl> {
    METRICS.to_vec()
}

const METRICS: [MetricDecl; 9] = [
    MetricDecl::probability(
        "shaken_by_turn={k}",
        "P(shaken by turn {k})",
        "P(at least 50% of the squad dead or wounded at the end of some turn up to k; Necrons ignore it)",
    ),
    MetricDecl::probability(
        "broken_by_turn={k}",
        "P(running by turn {k})",
        "P(fewer than 35% of the squad left standing at the end of some turn up to k: running away, or Necrons phased out)",
    ),
    MetricDecl::mean(
        "mean_dead_turn={k}",
        "mean dead at end of turn {k}",
        "expected figures dead or destroyed at the end of turn k (Necrons may yet repair)",
    ),
    MetricDecl::mean(
        "mean_casualties_turn={k}",
        "mean dead or wounded at end of turn {k}",
        "expected figures dead, destroyed or wounded at the end of turn k (after Necrons self-heal)",
    ),
    MetricDecl::probability(
        "p_hero_dead",
        "P(Hero dead)",
        "P(the Hero is dead or destroyed at the end of the last turn)",
    ),
    MetricDecl::probability(
        "p_shaken",
        "P(shaken by the last turn)",
        "P(at least 50% dead or wounded at the end of some turn; Necrons ignore it)",
    ),
    MetricDecl::probability(
        "p_broken",
        "P(running by the last turn)",
        "P(fewer than 35% left standing at the end of some turn: running, or Necrons phased out)",
    ),
    MetricDecl::mean(
        "mean_dead",
        "mean dead at the end",
        "expected figures dead or destroyed at the end of the last turn",
    ),
    MetricDecl::mean(
        "mean_casualties",
        "mean dead or wounded at the end",
        "expected figures dead, destroyed or wounded at the end of the last turn",
    ),
];

/// One shot that was not a 20, as it lands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Landed {
    at_hero: bool,
    effect: Option<Effect>,
    natural_one: bool,
}

/// One way a firing can go before the others under the blast: the
/// target's outcome law, whether the others roll their own D20 (`Some(None)`),
/// are hit off the firing's roll (`Some(Some(natural_one))`) or not at all
/// (`None`), and its weight.
type Case = (Vec<(Landed, f64)>, Option<Option<bool>>, f64);

/// The state the walk of [`StateFaces`] keys its nodes by: the squad, the
/// shooters at the turn's start, and the shooters after the turn so far.
type WalkState = (SquadState, Shooters, Shooters);

/// The model.
pub struct SquadModel {
    s: Squad,
    /// The fast sampler's walk, laid out the first time the model samples.
    layout: std::sync::OnceLock<Layout>,
    /// The trials a run plans ([`Model::plan`]; 0: not told).
    planned: std::sync::atomic::AtomicU64,
    list: MetricList,
    shaken: Vec<Metric>,
    broken: Vec<Metric>,
    dead: Vec<Metric>,
    casualties: Vec<Metric>,
    hero_dead: Option<Metric>,
    /// At the end of the last turn: shaken (not for Necrons), broken, dead, casualties.
    last: (Option<Metric>, [Metric; 3]),
}

impl Squad {
    /// The model with its metric handles.
    pub fn into_model(self) -> SquadModel {
        let mut list = MetricList::new();
        let turns = 1..=self.turns;
        let shaken = if self.necrons {
            Vec::new()
        } else {
            list.family(&METRICS[0], turns.clone())
        };
        let broken = list.family(&METRICS[1], turns.clone());
        let dead = list.family(&METRICS[2], turns.clone());
        let casualties = list.family(&METRICS[3], turns);
        let hero_dead = self.hero.then(|| list.add(&METRICS[4]));
        let last = (
            (!self.necrons).then(|| list.add(&METRICS[5])),
            [6, 7, 8].map(|i| list.add(&METRICS[i])),
        );
        SquadModel {
            s: self,
            layout: std::sync::OnceLock::new(),
            planned: std::sync::atomic::AtomicU64::new(0),
            list,
            shaken,
            broken,
            dead,
            casualties,
            hero_dead,
            last,
        }
    }

    pub(super) fn start(&self) -> SquadState {
        SquadState {
            healthy: self.troopers - self.wounded_at_start,
            wounded: self.wounded_at_start,
            destroyed: 0,
            dead: 0,
            hero: if self.hero {
                Hero::Healthy
            } else {
                Hero::Absent
            },
            shaken: false,
            broken: false,
        }
    }

    /// The squad's initial strength for morale ("below 35% of initial
    /// squad strength"): the figures fired at, or more where the squad
    /// starts with casualties (those lost before count as hurt, never as
    /// figures on the table).
    pub(super) fn size(&self) -> u32 {
        self.strength
    }

    /// A figure is killed: Necrons lie destroyed (and may repair) unless
    /// the D20 showed 1.
    fn killed(&self, natural_one: bool) -> bool {
        self.necrons && !natural_one
    }

    /// A landed shot's effect on the squad.
    fn land(&self, st: &mut SquadState, l: Landed) {
        let Some(e) = l.effect else {
            return;
        };
        if !l.at_hero && st.troopers_standing() == 0 {
            return;
        }
        let repairable = self.killed(l.natural_one);
        let die = |st: &mut SquadState| {
            if repairable {
                st.destroyed += 1;
            } else {
                st.dead += 1;
            }
        };
        if l.at_hero {
            let hero_dies = match e {
                Effect::DuckBack => false,
                Effect::Wounded => st.hero == Hero::Wounded,
                Effect::Dead => true,
            };
            if hero_dies {
                st.hero = if repairable {
                    Hero::Destroyed
                } else {
                    Hero::Dead
                };
            } else if e == Effect::Wounded {
                st.hero = Hero::Wounded;
            }
            return;
        }
        match e {
            Effect::DuckBack => {}
            // "if a "Kill" is scored it has to be given to an unwounded figure if one exists"
            Effect::Dead => {
                if st.healthy > 0 {
                    st.healthy -= 1;
                } else {
                    st.wounded -= 1;
                }
                die(st);
            }
            Effect::Wounded => {
                let onto_wounded = st.wounded > 0 && (self.stack_wounds || st.healthy == 0);
                if onto_wounded {
                    st.wounded -= 1;
                    die(st);
                } else {
                    st.healthy -= 1;
                    st.wounded += 1;
                }
            }
        }
    }

    /// Whom the attack goes to: a D6 per attack when both a Hero and his
    /// men stand.
    fn allocate(&self, st: &SquadState, dice: &mut impl Roller) -> bool {
        match (st.hero.standing(), st.troopers_standing() > 0) {
            (true, true) => at_hero(dice.d6()),
            (hero, _) => hero,
        }
    }

    /// Other troopers under the blast at a firing, wholly and partly: the
    /// troopers standing besides the target, at most as many as given.
    fn covered(&self, st: &SquadState, at_hero: bool) -> (u8, u8) {
        let avail = st.troopers_standing() - u8::from(!at_hero);
        let full = self.others_full.min(avail);
        (full, self.others_partly.min(avail - full))
    }

    /// A hit that lands: its effect (D6), by the column of who is hit.
    fn hit_law(at_hero: bool, natural_one: bool, p: f64, law: &mut BTreeMap<Landed, f64>) {
        for d6 in 1..=6 {
            let l = Landed {
                at_hero,
                effect: Some(effect_of_hit(d6, at_hero)),
                natural_one,
            };
            *law.entry(l).or_insert(0.0) += p / 6.0;
        }
    }

    fn nothing(at_hero: bool) -> Landed {
        Landed {
            at_hero,
            effect: None,
            natural_one: false,
        }
    }

    /// The exact law of the target's outcome, given its D20 was not a 20.
    fn target_law(&self, at_hero: bool) -> Vec<(Landed, f64)> {
        let mut law: BTreeMap<Landed, f64> = BTreeMap::new();
        for roll in 1..=19 {
            match read_d20(roll, self.value, self.modifier, true) {
                Roll::Hit { natural_one } => {
                    Self::hit_law(at_hero, natural_one && self.necrons, 1.0 / 19.0, &mut law);
                }
                _ => *law.entry(Self::nothing(at_hero)).or_insert(0.0) += 1.0 / 19.0,
            }
        }
        law.into_iter().collect()
    }

    /// The exact law of one other trooper's outcome: covered with
    /// probability `cover`, then its own D20 (a 20 misses: "only one chance
    /// of a 20"), or, with one D20 for the blast, `given` (the firing's
    /// roll hit the others, and whether it showed 1).
    fn other_law(&self, cover: f64, given: Option<bool>) -> Vec<(Landed, f64)> {
        let mut law: BTreeMap<Landed, f64> = BTreeMap::new();
        *law.entry(Self::nothing(false)).or_insert(0.0) += 1.0 - cover;
        match given {
            Some(natural_one) => Self::hit_law(false, natural_one && self.necrons, cover, &mut law),
            None => {
                for roll in 1..=20 {
                    let q = cover / 20.0;
                    match read_d20(roll, self.others_value, self.modifier, false) {
                        Roll::Hit { natural_one } => {
                            Self::hit_law(false, natural_one && self.necrons, q, &mut law);
                        }
                        _ => *law.entry(Self::nothing(false)).or_insert(0.0) += q,
                    }
                }
            }
        }
        law.into_iter().filter(|(_, p)| *p > 0.0).collect()
    }

    fn partly_cover(&self) -> f64 {
        if self.template { 1.0 } else { 0.5 }
    }

    /// `dist` after each figure's outcome drawn from `law`; `work` counts
    /// the outcomes merged.
    fn apply(
        &self,
        dist: BTreeMap<SquadState, f64>,
        law: &[(Landed, f64)],
        work: &mut u64,
    ) -> BTreeMap<SquadState, f64> {
        *work += (dist.len() * law.len()) as u64;
        let mut out = BTreeMap::new();
        for (st, p) in dist {
            for &(l, q) in law {
                let mut st2 = st;
                self.land(&mut st2, l);
                *out.entry(st2).or_insert(0.0) += p * q;
            }
        }
        out
    }

    /// The exact law of the squad after one firing whose D20 was not a 20:
    /// whom it is aimed at, its D20 and effect, then the others under the
    /// blast one by one (the sampler's order).
    pub(super) fn firing_law(&self, st: &SquadState, work: &mut u64) -> Vec<(SquadState, f64)> {
        let p_hero = match (st.hero.standing(), st.troopers_standing() > 0) {
            (true, true) => 1.0 / 6.0,
            (true, false) => 1.0,
            _ => 0.0,
        };
        let mut out: BTreeMap<SquadState, f64> = BTreeMap::new();
        for (at_hero, p) in [(true, p_hero), (false, 1.0 - p_hero)] {
            if p == 0.0 {
                continue;
            }
            let (full, partly) = self.covered(st, at_hero);
            // (the target's outcome law, the others' given law, weight)
            let mut cases: Vec<Case> = Vec::new();
            if self.one_roll && full + partly > 0 {
                // the firing's D20 read against both values, by class
                let mut classes: BTreeMap<(Roll, bool), u32> = BTreeMap::new();
                for roll in 1..=19 {
                    let t = read_d20(roll, self.value, self.modifier, true);
                    let o = read_d20(roll, self.others_value, self.modifier, false);
                    *classes
                        .entry((t, matches!(o, Roll::Hit { .. })))
                        .or_insert(0) += 1;
                }
                for ((t, o), n) in classes {
                    let mut law = BTreeMap::new();
                    let natural_one = matches!(t, Roll::Hit { natural_one: true });
                    if matches!(t, Roll::Hit { .. }) {
                        Self::hit_law(at_hero, natural_one && self.necrons, 1.0, &mut law);
                    } else {
                        law.insert(Self::nothing(at_hero), 1.0);
                    }
                    let given = o.then_some(Some(natural_one));
                    cases.push((law.into_iter().collect(), given, f64::from(n) / 19.0));
                }
            } else {
                cases.push((self.target_law(at_hero), Some(None), 1.0));
            }
            for (target, given, w) in cases {
                let mut dist = BTreeMap::from([(*st, 1.0)]);
                dist = self.apply(dist, &target, work);
                if let Some(given) = given {
                    let full_law = self.other_law(1.0, given);
                    let partly_law = self.other_law(self.partly_cover(), given);
                    for _ in 0..full {
                        dist = self.apply(dist, &full_law, work);
                    }
                    for _ in 0..partly {
                        dist = self.apply(dist, &partly_law, work);
                    }
                }
                for (st2, q) in dist {
                    *out.entry(st2).or_insert(0.0) += p * w * q;
                }
            }
        }
        out.into_iter().collect()
    }

    /// What a jam on firing `j` (1-based) leaves the weapon.
    fn jammed_after(&self, j: u32, unjamming: bool) -> After {
        if self.firer.row.on_20.lost_for_good() {
            After::Lost
        } else if self.firer.jam_carries_over(j, unjamming) {
            After::Jammed
        } else {
            After::Ready
        }
    }

    /// One shooter's turn: the law of (D20s that were not a 20, its weapon after).
    fn shooter_law(&self, unjamming: bool) -> Vec<((u32, After), f64)> {
        let shots = self.firer.shots(unjamming);
        if let Some(l) = self.lock_on {
            // each firing: locks on (L or less), then its D20 jams on a
            // 20, else goes off; a failed lock-on fires nothing
            let locks = f64::from(l) / 20.0;
            let mut out: BTreeMap<(u32, After), f64> = BTreeMap::new();
            // firings gone off so far -> probability, still firing
            let mut going: BTreeMap<u32, f64> = BTreeMap::from([(0, 1.0)]);
            for j in 1..=shots {
                let mut next: BTreeMap<u32, f64> = BTreeMap::new();
                for (&k, &p) in &going {
                    *next.entry(k).or_insert(0.0) += p * (1.0 - locks);
                    *out.entry((k, self.jammed_after(j, unjamming)))
                        .or_insert(0.0) += p * locks / 20.0;
                    *next.entry(k + 1).or_insert(0.0) += p * locks * 19.0 / 20.0;
                }
                going = next;
            }
            for (k, p) in going {
                *out.entry((k, After::Ready)).or_insert(0.0) += p;
            }
            return out.into_iter().filter(|(_, p)| *p > 0.0).collect();
        }
        let mut out = Vec::new();
        let go: f64 = 19.0 / 20.0;
        for j in 1..=shots {
            let after = self.jammed_after(j, unjamming);
            out.push(((j - 1, after), go.powi(j as i32 - 1) / 20.0));
        }
        out.push(((shots, After::Ready), go.powi(shots as i32)));
        out
    }

    /// The law of a turn of fire from `sh`: (D20s not a 20, shooters after).
    pub(super) fn volley_law(&self, sh: Shooters) -> Vec<((u32, Shooters), f64)> {
        let ready = self.shooters - sh.jammed - sh.lost;
        let mut d: BTreeMap<(u32, Shooters), f64> = BTreeMap::new();
        d.insert(
            (
                0,
                Shooters {
                    jammed: 0,
                    lost: sh.lost,
                },
            ),
            1.0,
        );
        let groups = [(true, sh.jammed), (false, ready)];
        for (unjamming, count) in groups {
            let law = self.shooter_law(unjamming);
            for _ in 0..count {
                let mut next = BTreeMap::new();
                for (&(n, s), &p) in &d {
                    for &((k, after), q) in &law {
                        let mut s2 = s;
                        match after {
                            After::Ready => {}
                            After::Jammed => s2.jammed += 1,
                            After::Lost => s2.lost += 1,
                        }
                        *next.entry((n + k, s2)).or_insert(0.0) += p * q;
                    }
                }
                d = next;
            }
        }
        d.into_iter().collect()
    }

    /// A turn of fire from shooters `sh` on the squad's law `squad`, every
    /// outcome given to `emit` as (shooters after, squad after, its
    /// probability): the law of how many D20s that were not a 20 the
    /// shooters roll, then that many draws of one firing's law (`laws`
    /// keeps each squad's, `work` counts the outcomes merged).
    pub(super) fn turn_of_fire(
        &self,
        sh: Shooters,
        squad: BTreeMap<SquadState, f64>,
        laws: &mut BTreeMap<SquadState, Vec<(SquadState, f64)>>,
        work: &mut u64,
        mut emit: impl FnMut(Shooters, SquadState, f64),
    ) -> Result<(), NoExact> {
        let volley = self.volley_law(sh);
        let most = volley.iter().map(|((n, _), _)| *n).max().unwrap_or(0);
        // the squad after n firings that were not a 20, n = 0, 1, ... most
        let mut after_n = squad;
        for n in 0..=most {
            for &((k, sh2), q) in &volley {
                if k == n {
                    for (&st, &p) in &after_n {
                        emit(sh2, st, p * q);
                    }
                }
            }
            if n == most {
                break;
            }
            let mut stepped: BTreeMap<SquadState, f64> = BTreeMap::new();
            for (&st, &p) in &after_n {
                if st.broken || st.standing() == 0 {
                    *stepped.entry(st).or_insert(0.0) += p;
                    continue;
                }
                let law = laws
                    .entry(st)
                    .or_insert_with(|| self.firing_law(&st, &mut *work));
                *work += law.len() as u64;
                if *work > EXACT_WORK {
                    return Err(NoExact::TooMuchWork { limit: EXACT_WORK });
                }
                for &(st2, q) in law.iter() {
                    *stepped.entry(st2).or_insert(0.0) += p * q;
                }
            }
            after_n = stepped;
        }
        Ok(())
    }

    /// Start of a turn: destroyed Necrons roll to stand back up; the law.
    pub(super) fn repair_law(&self, st: &SquadState) -> Vec<(SquadState, f64)> {
        let hero_down = st.hero == Hero::Destroyed;
        let n = u64::from(st.destroyed) + u64::from(hero_down);
        if n == 0 || st.broken {
            return vec![(*st, 1.0)];
        }
        let p = f64::from(7 - repair_target(self.near_lord)) / 6.0;
        let mut out = Vec::new();
        // the Hero's roll first, then the troopers' count
        let hero_cases: Vec<(bool, f64)> = if hero_down {
            vec![(true, p), (false, 1.0 - p)]
        } else {
            vec![(false, 1.0)]
        };
        for (hero_up, ph) in hero_cases {
            let m = u64::from(st.destroyed);
            for k in 0..=m {
                let mut s = *st;
                s.healthy += k as u8;
                s.dead += (m - k) as u8;
                s.destroyed = 0;
                if hero_down {
                    s.hero = if hero_up { Hero::Healthy } else { Hero::Dead };
                }
                out.push((s, ph * binomial_pmf(m, k, p)));
            }
        }
        out
    }

    /// The sampler's repair rolls.
    pub(super) fn repair(&self, st: &mut SquadState, dice: &mut impl Roller) {
        if st.broken {
            return;
        }
        let target = repair_target(self.near_lord);
        if st.hero == Hero::Destroyed {
            st.hero = if dice.d6() >= target {
                Hero::Healthy
            } else {
                Hero::Dead
            };
        }
        for _ in 0..st.destroyed {
            if dice.d6() >= target {
                st.healthy += 1;
            } else {
                st.dead += 1;
            }
        }
        st.destroyed = 0;
    }

    /// End of a turn: Necrons self-heal, then morale.
    pub(super) fn end_turn(&self, st: &mut SquadState) {
        if st.broken {
            return;
        }
        if self.necrons {
            st.healthy += st.wounded;
            st.wounded = 0;
            if st.hero == Hero::Wounded {
                st.hero = Hero::Healthy;
            }
        }
        let size = self.size();
        let standing = u32::from(st.standing());
        let hurt = size - u32::from(st.healthy) - u32::from(st.hero == Hero::Healthy);
        if !self.necrons && 2 * hurt >= size {
            st.shaken = true;
        }
        if 100 * standing < 35 * size {
            st.broken = true;
            if self.necrons {
                // "they phase out and do not return during this game"
                st.dead += st.destroyed;
                st.destroyed = 0;
                if st.hero == Hero::Destroyed {
                    st.hero = Hero::Dead;
                }
            }
        }
    }

    /// The sampler: one turn of fire, shooter by shooter, shot by shot.
    pub(super) fn fire(&self, st: &mut SquadState, sh: &mut Shooters, dice: &mut impl Roller) {
        if st.broken {
            return;
        }
        let ready = self.shooters - sh.jammed - sh.lost;
        let mut next = Shooters {
            jammed: 0,
            lost: sh.lost,
        };
        for (unjamming, count) in [(true, sh.jammed), (false, ready)] {
            for _ in 0..count {
                self.shooter_turn(st, unjamming, &mut next, dice);
            }
        }
        *sh = next;
    }

    /// One shooter's turn, shot by shot: its jam noted in `next`.
    pub(super) fn shooter_turn(
        &self,
        st: &mut SquadState,
        unjamming: bool,
        next: &mut Shooters,
        dice: &mut impl Roller,
    ) {
        for j in 1..=self.firer.shots(unjamming) {
            if st.standing() == 0 {
                break;
            }
            // "If lock on is not achieved the 2AP's have been spent and the
            // missile is not fired which means no one in the blast radius
            // can be hurt either"
            if let Some(l) = self.lock_on
                && dice.roll(20) > u32::from(l)
            {
                continue;
            }
            let at_hero = self.allocate(st, dice);
            let roll = dice.roll(20);
            let target = read_d20(roll, self.value, self.modifier, true);
            if target == Roll::Jam {
                if self.firer.row.on_20.lost_for_good() {
                    next.lost += 1;
                } else if self.firer.jam_carries_over(j, unjamming) {
                    next.jammed += 1;
                }
                break;
            }
            // who else stands under the blast, as it goes off
            let (full, partly) = self.covered(st, at_hero);
            if let Roll::Hit { natural_one } = target {
                let effect = effect_of_hit(dice.d6() as i32, at_hero);
                let l = Landed {
                    at_hero,
                    effect: Some(effect),
                    natural_one: natural_one && self.necrons,
                };
                self.land(st, l);
            }
            for k in 0..full + partly {
                if k >= full && !self.template && dice.d6() < 4 {
                    continue;
                }
                // its own D20 (a 20 misses), or the firing's
                let own = if self.one_roll { roll } else { dice.roll(20) };
                if let Roll::Hit { natural_one } =
                    read_d20(own, self.others_value, self.modifier, false)
                {
                    let effect = effect_of_hit(dice.d6() as i32, false);
                    let l = Landed {
                        at_hero: false,
                        effect: Some(effect),
                        natural_one: natural_one && self.necrons,
                    };
                    self.land(st, l);
                }
            }
        }
    }

    /// Steps of a turn in the walk of [`StateFaces`]: the repair rolls,
    /// one a shooter, the end of the turn.
    fn per_turn(&self) -> usize {
        usize::from(self.shooters) + 2
    }

    /// Step `i` of a trial as the state face tables lay it out: the same
    /// dice in the same order as [`SquadModel::play`] rolls them.
    fn walk_step(&self, i: usize, dice: &mut impl Roller, w: &mut WalkState) {
        let (st, sh, next) = w;
        let k = i % self.per_turn();
        if k == 0 {
            self.repair(st, dice);
            *next = Shooters {
                jammed: 0,
                lost: sh.lost,
            };
        } else if k + 1 == self.per_turn() {
            if !st.broken {
                *sh = *next;
            }
            *next = Shooters::default();
            self.end_turn(st);
            // a broken squad is shot no more: the shooters no longer matter
            if st.broken {
                *sh = Shooters::default();
            }
        } else if !st.broken {
            let q = (k - 1) as u8;
            let ready = self.shooters - sh.jammed - sh.lost;
            if q < sh.jammed + ready {
                self.shooter_turn(st, q < sh.jammed, next, dice);
            }
        }
    }

    pub(super) fn dead_count(&self, st: &SquadState) -> u64 {
        u64::from(st.dead)
            + u64::from(st.destroyed)
            + u64::from(matches!(st.hero, Hero::Dead | Hero::Destroyed))
    }
}

impl SquadModel {
    fn record_turn(&self, t: usize, st: &SquadState, sink: &mut impl MetricSink) {
        if let Some(&m) = self.shaken.get(t) {
            sink.record(m, u64::from(st.shaken));
        }
        sink.record(self.broken[t], u64::from(st.broken));
        let dead = self.s.dead_count(st);
        sink.record(self.dead[t], dead);
        let wounded = u64::from(st.wounded) + u64::from(st.hero == Hero::Wounded);
        sink.record(self.casualties[t], dead + wounded);
        if t + 1 == self.s.turns as usize {
            if let Some(m) = self.hero_dead {
                sink.record(
                    m,
                    u64::from(matches!(st.hero, Hero::Dead | Hero::Destroyed)),
                );
            }
            let (shaken, [broken, dead_m, cas]) = self.last;
            if let Some(m) = shaken {
                sink.record(m, u64::from(st.shaken));
            }
            sink.record(broken, u64::from(st.broken));
            sink.record(dead_m, dead);
            sink.record(cas, dead + wounded);
        }
    }

    /// One trial: `at_turn(t, squad)` at the end of each turn.
    fn play(&self, dice: &mut impl Roller, mut at_turn: impl FnMut(usize, &SquadState)) {
        let mut st = self.s.start();
        let mut sh = Shooters::default();
        for t in 0..self.s.turns as usize {
            self.s.repair(&mut st, dice);
            self.s.fire(&mut st, &mut sh, dice);
            self.s.end_turn(&mut st);
            at_turn(t, &st);
        }
    }

    fn trial(&self, dice: &mut impl Roller, sink: &mut impl MetricSink) {
        self.play(dice, |t, st| self.record_turn(t, st, sink));
    }

    /// The walk: a node a turn's step and state; the states at each turn's
    /// end counted. A turn is drawn from its law ([`StateLaws`]) where there
    /// are turns to chain, laid out by its faces otherwise.
    fn layout(&self) -> &Layout {
        self.layout.get_or_init(|| {
            let s = &self.s;
            let per = s.per_turn();
            let rule = Steps {
                start: (s.start(), Shooters::default(), Shooters::default()),
                steps: per * s.turns as usize,
                step: |i: usize, d: &mut Digits, w: &mut WalkState| s.walk_step(i, d, w),
                counted: |i| i % per == 0,
            };
            let budget = crate::engine::stages::entries_for(
                self.planned.load(std::sync::atomic::Ordering::Relaxed),
            );
            if let Some(laws) = StateLaws::build(&rule, |i| i % per == 0, budget) {
                Layout::Laws(laws)
            } else if let Some(faces) = StateFaces::build(&rule, budget) {
                Layout::Faces(faces)
            } else {
                Layout::None
            }
        })
    }
}

/// How the fast sampler walks a trial.
#[derive(Debug)]
enum Layout {
    /// A turn a draw of its law.
    Laws(StateLaws<WalkState>),
    /// A shooter's dice (or a few steps') a draw of their faces.
    Faces(StateFaces<WalkState>),
    /// Too many states: counted dice.
    None,
}

impl Model for SquadModel {
    fn metrics(&self) -> &[MetricDef] {
        self.list.defs()
    }

    fn plan(&self, trials: u64) {
        self.planned
            .store(trials, std::sync::atomic::Ordering::Relaxed);
    }

    /// Real dice; each turn's metrics read only that turn's squad, so the
    /// squads met at the end of each turn are counted and each recorded
    /// once per chunk.
    fn run_chunk(&self, roller: &mut BatchedRoller, trials: u64, tally: &mut Tally) {
        let walked = match self.layout() {
            Layout::Laws(w) => Some((w.count(roller, trials), w.counted())),
            Layout::Faces(w) => Some((w.count(roller, trials), w.counted())),
            Layout::None => None,
        };
        if let Some((counts, counted)) = walked {
            let per = self.s.per_turn();
            for ((i, (st, _, _)), &count) in counted.iter().zip(&counts) {
                if count > 0 {
                    self.record_turn(
                        i / per - 1,
                        st,
                        &mut Times {
                            tally: &mut *tally,
                            count,
                        },
                    );
                }
            }
            tally.add_trials(trials);
            return;
        }
        let mut ends: Vec<foldhash::HashMap<SquadState, u64>> =
            vec![Default::default(); self.s.turns as usize];
        for _ in 0..trials {
            self.play(roller, |t, st| *ends[t].entry(*st).or_insert(0) += 1);
        }
        for (t, turn) in ends.iter().enumerate() {
            for (st, &count) in turn {
                self.record_turn(
                    t,
                    st,
                    &mut Times {
                        tally: &mut *tally,
                        count,
                    },
                );
            }
        }
        tally.add_trials(trials);
    }

    fn sampler(&self) -> Sampler {
        match self.layout() {
            Layout::Laws(_) => Sampler::Custom(STATE_LAWS),
            Layout::Faces(_) => Sampler::Custom(STATE_FACES),
            Layout::None => Sampler::CountedDice,
        }
    }

    fn run_reference(&self, roller: &mut BatchedRoller, trials: u64, tally: &mut Tally) {
        for _ in 0..trials {
            self.trial(roller, tally);
            tally.finish_trial();
        }
    }

    fn exact(&self) -> Option<Vec<f64>> {
        self.exact_or_why().ok()
    }

    /// Dynamic programming over counts, counting its work: past
    /// [`EXACT_WORK`] (about a second) the cell is Monte Carlo only.
    fn exact_or_why(&self) -> Result<Vec<f64>, NoExact> {
        let s = &self.s;
        let mut work: u64 = 0;
        let mut e = Expectation::new(self.list.len());
        let mut joint: BTreeMap<(Shooters, SquadState), f64> = BTreeMap::new();
        joint.insert((Shooters::default(), s.start()), 1.0);
        let mut laws: BTreeMap<SquadState, Vec<(SquadState, f64)>> = BTreeMap::new();
        for t in 0..s.turns as usize {
            // repair, grouped by the shooters' state
            let mut by_shooters: BTreeMap<Shooters, BTreeMap<SquadState, f64>> = BTreeMap::new();
            for (&(sh, st), &p) in &joint {
                for (st2, q) in s.repair_law(&st) {
                    *by_shooters.entry(sh).or_default().entry(st2).or_insert(0.0) += p * q;
                }
            }
            let mut next: BTreeMap<(Shooters, SquadState), f64> = BTreeMap::new();
            for (sh, squad) in by_shooters {
                s.turn_of_fire(sh, squad, &mut laws, &mut work, |sh2, st, p| {
                    *next.entry((sh2, st)).or_insert(0.0) += p;
                })?;
            }
            joint = BTreeMap::new();
            for ((sh, mut st), p) in next {
                s.end_turn(&mut st);
                // a broken squad is shot no more: the shooters no longer matter
                let sh = if st.broken { Shooters::default() } else { sh };
                *joint.entry((sh, st)).or_insert(0.0) += p;
            }
            for (&(_, st), &p) in &joint {
                e.set_weight(p);
                self.record_turn(t, &st, &mut e);
            }
        }
        Ok(e.into_values())
    }

    fn sample_one(&self, roller: &mut BatchedRoller, values: &mut [u64]) {
        self.trial(roller, &mut TrialValues(values));
    }
}

const MORALE: &str = "MORALE";

crate::variant_enum! {
    /// Where a squad's wounds go (variant `wound_allocation`).
    pub enum WoundAllocation = "wound_allocation" {
        /// A Wounded result goes to an unwounded figure while there is one
        /// (more wounded, fewer dead).
        Spread = "spread",
        /// Onto a wounded figure, killing it: "add the wounds to the
        /// existing wounded figures and kill them".
        Stack = "stack",
    }
    about: "the defender allocates a Wounded result: to an unwounded figure while there is one (default: more wounded, fewer dead), or onto a wounded one, killing it (\"add the wounds to the existing wounded figures and kill them\")",
}

crate::param_struct! {
    /// Parameters of the scenario.
    pub struct SquadParams {
        shooters: i64 = int(1, 20)
            .required()
            .about("figures firing into the squad, each with the weapon below")
            .seed("TURN SEQUENCE; SHOOT"),
        ..shot: ShotParams,
        troopers: i64 = int(1, 20)
            .required()
            .about("common troopers in the squad fired at")
            .seed("GAME MECHANICS: squads of 6-10"),
        hero: bool = flag()
            .about("a Hero (officer, veteran sergeant, Necron Lord) leads the squad: a 6 on the allocation D6 goes to him")
            .seed("UNIT COHESION"),
        necrons: bool = flag()
            .about("a Necron squad: ignores Duck Backs and the 50% rule, self-heals, repairs on 5+, phases out below 35%")
            .seed("NECRON SPECIAL RULES"),
        near_lord_or_tomb_spider: bool = flag()
            .about("Necrons within 12\" of a Lord or Tomb Spider repair on 4+")
            .seed("NECRON SPECIAL RULES"),
        turns: i64 = int(1, 8)
            .default("4")
            .about("turns of fire")
            .seed(MORALE),
        squad_strength: Opt<i64> = int(1, 40)
            .about("the squad's initial strength its morale is read against; left out: the troopers and Hero fired at. Larger for a squad that starts with casualties: a regrouped squad counts as 2 larger (\"Count it as 8 men left out of a 10 man squad\"); the men lost before count toward shaken and running, not in the dead metrics")
            .seed("MORALE; REGROUP"),
        troopers_wounded: Opt<i64> = int(0, 20)
            .about("troopers of the squad already wounded at the first turn (left out: none) (\"For morale purposes wounded still count as part of the squad\"); not Necrons, who self-heal at the end of each turn")
            .seed("MORALE; UNIT COHESION"),
        // given, or left out (the defaults, 0, stand for "not said")
        others_under_template: Given<i64> = int(0, 12)
            .default("0")
            .about("a blast or template weapon (needed with one): troopers of the squad wholly under it each firing besides the one aimed at (the chart's second value; as many as stand)")
            .seed("WEAPONS FACTOR CHART (explanation)"),
        others_partly_under: Given<i64> = int(0, 12)
            .default("0")
            .about("troopers of the squad partly under it each firing: a blast covers them on a D6 4+, the flamer's template always")
            .seed("WEAPONS FACTOR CHART (explanation)"),
    }
}

/// Points the conformance suite checks besides the example specs.
pub const TEST_POINTS: &[&[(&str, &str)]] = &[
    &[
        ("shooters", "3"),
        ("weapon", "laser_assault_rifle"),
        ("range", "20"),
        ("armour", "std"),
        ("troopers", "5"),
        ("hero", "true"),
        ("turns", "3"),
    ],
    &[
        ("shooters", "4"),
        ("weapon", "bolt_rifle"),
        ("range", "10"),
        ("armour", "power"),
        ("troopers", "5"),
        ("necrons", "true"),
        ("hero", "true"),
        ("turns", "3"),
    ],
    &[
        ("shooters", "2"),
        ("weapon", "grenade_launcher"),
        ("range", "20"),
        ("armour", "std"),
        ("troopers", "6"),
        ("hero", "true"),
        ("others_under_template", "2"),
        ("others_partly_under", "1"),
        ("turns", "2"),
    ],
    &[
        ("shooters", "2"),
        ("weapon", "missile_launcher"),
        ("range", "20"),
        ("armour", "power"),
        ("troopers", "5"),
        ("necrons", "true"),
        ("others_under_template", "1"),
        ("others_partly_under", "1"),
        ("turns", "2"),
    ],
    &[
        ("shooters", "2"),
        ("weapon", "plasma_pistol"),
        ("range", "6"),
        ("armour", "std"),
        ("troopers", "4"),
        ("turns", "3"),
    ],
    // a squad that starts with casualties: "Count it as 8 men left out
    // of a 10 man squad", one of them wounded
    &[
        ("shooters", "3"),
        ("weapon", "laser_assault_rifle"),
        ("range", "20"),
        ("armour", "std"),
        ("troopers", "7"),
        ("hero", "true"),
        ("squad_strength", "10"),
        ("troopers_wounded", "1"),
        ("turns", "3"),
    ],
    // Necrons phase out "below 35% of initial squad strength"
    &[
        ("shooters", "4"),
        ("weapon", "bolt_rifle"),
        ("range", "10"),
        ("armour", "power"),
        ("troopers", "5"),
        ("necrons", "true"),
        ("hero", "true"),
        ("squad_strength", "9"),
        ("turns", "3"),
    ],
];

/// Builds the model.
pub fn build(p: &Params, v: &Params) -> Result<Box<dyn Model>, ParamError> {
    Ok(Box::new(squad_of(p, v)?.into_model()))
}

/// The squad under fire `p` describes, checked (the `volley` reads each
/// attacker as this scenario's shooters).
pub fn squad_of(p: &Params, v: &Params) -> Result<Squad, ParamError> {
    let p = SquadParams::read(p)?;
    let firer = p.shot.firer()?;
    firer.check()?;
    let necrons = p.necrons;
    if p.near_lord_or_tomb_spider && !necrons {
        return Err(ParamError::new(
            crate::param_name!(SquadParams.near_lord_or_tomb_spider),
            "only Necrons repair: set necrons = true",
        ));
    }
    let cell = firer.row.cells[p.shot.target.armour.column()];
    let area = p.shot.weapon.weapon_area.as_str();
    let full = p.others_under_template.given_value();
    let partly = p.others_partly_under.given_value();
    if area == "none" {
        if let Some(field) = [
            (crate::param_name!(SquadParams.others_under_template), full),
            (crate::param_name!(SquadParams.others_partly_under), partly),
        ]
        .into_iter()
        .find_map(|(f, n)| (n.unwrap_or(0) > 0).then_some(f))
        {
            return Err(ParamError::new(
                field,
                "the weapon covers no area (weapon_area = \"none\"): only the figure aimed at can be hit",
            ));
        }
    } else if full.is_none() && partly.is_none() {
        // how many stand under a blast is the table's, not the chart's
        return Err(ParamError::missing(
            crate::param_name!(SquadParams.others_under_template),
            format!(
                "missing: set others_under_template (weapon_area = \"{area}\" covers others of the squad: how many stand wholly under it each firing besides the one aimed at; and others_partly_under for those partly under; 0 for none)"
            ),
        ));
    }
    let (full, partly) = (full.unwrap_or(0) as u8, partly.unwrap_or(0) as u8);
    let (troopers, wounded_at_start) = (
        p.troopers as u8,
        p.troopers_wounded.value.unwrap_or(0) as u8,
    );
    let wounded_field = crate::param_name!(SquadParams.troopers_wounded);
    if wounded_at_start > troopers {
        return Err(ParamError::new(
            wounded_field,
            format!("{wounded_at_start} troopers wounded, but the squad has {troopers} troopers"),
        ));
    }
    if wounded_at_start > 0 && necrons {
        return Err(ParamError::new(
            wounded_field,
            "\"At the end of each full turn any Necrons that are \"wounded\" self heal\": a Necron squad starts a turn with none wounded",
        ));
    }
    let fired_at = u32::from(troopers) + u32::from(p.hero);
    let strength = match p.squad_strength.value {
        None => fired_at,
        Some(n) => {
            let n = n as u32;
            let field = crate::param_name!(SquadParams.squad_strength);
            if n < fired_at {
                return Err(ParamError::new(
                    field,
                    format!(
                        "a squad strength of {n} is fewer than the {fired_at} figures fired at (troopers and Hero)"
                    ),
                ));
            }
            // "Once a squad falls below 35% then it must run away. It can not shoot at all."
            if 100 * fired_at < 35 * n {
                return Err(ParamError::new(
                    field,
                    format!(
                        "{fired_at} standing of a squad of {n} is already below 35%: it must run away (or, Necrons, has phased out) before the first turn"
                    ),
                ));
            }
            n
        }
    };
    let squad = Squad {
        shooters: p.shooters as u8,
        firer,
        value: cell.target,
        others_value: cell.others,
        lock_on: cell.lock_on,
        others_full: full,
        others_partly: partly,
        template: area == "template",
        one_roll: full + partly > 0 && BlastRoll::read(v)? == BlastRoll::Once,
        modifier: p.shot.modifiers(false).total(),
        troopers,
        hero: p.hero,
        necrons,
        near_lord: p.near_lord_or_tomb_spider,
        stack_wounds: WoundAllocation::read(v)? == WoundAllocation::Stack,
        turns: p.turns as u32,
        strength,
        wounded_at_start,
    };
    Ok(squad)
}

#[cfg(test)]
mod tests {
    use super::super::chart::parse_ranged_row;
    use super::*;

    fn squad(troopers: u8, hero: bool, necrons: bool) -> Squad {
        Squad {
            shooters: 1,
            firer: Firer {
                row: parse_ranged_row("12 | 8 | 5 | 3 | X | 1 | jam", "w").unwrap(),
                range: 6,
                ap: 3,
                moved_d6: 0,
                firing_ap: 2,
                heavy: false,
                set_up: 0,
            },
            value: Some(8),
            others_value: Some(8),
            lock_on: None,
            others_full: 0,
            others_partly: 0,
            template: false,
            one_roll: false,
            modifier: 0,
            troopers,
            hero,
            necrons,
            near_lord: false,
            stack_wounds: false,
            turns: 1,
            strength: u32::from(troopers) + u32::from(hero),
            wounded_at_start: 0,
        }
    }

    /// Turns are chained by drawing each from its law; a squad fired at
    /// for one turn is not (its turn is the whole trial): its shooters'
    /// dice are laid out by their faces.
    #[test]
    fn turns_are_drawn_from_their_laws_but_never_a_lone_turn() {
        let model = |turns: &str| {
            let point = [TEST_POINTS[0], &[("turns", turns)]].concat();
            crate::systems::testing::model(&super::super::RULES, "squad_under_fire", &point)
        };
        assert_eq!(model("3").sampler(), Sampler::Custom(STATE_LAWS));
        assert_eq!(model("2").sampler(), Sampler::Custom(STATE_LAWS));
        assert_eq!(model("1").sampler(), Sampler::Custom(STATE_FACES));
    }

    #[test]
    fn shaken_at_half_hurt_running_below_35_percent() {
        let s = squad(9, true, false);
        let mut st = s.start();
        st.healthy = 5;
        st.wounded = 4;
        st.hero = Hero::Wounded;
        s.end_turn(&mut st);
        assert!(st.shaken && !st.broken, "5 of 10 hurt: shaken");
        let mut st = s.start();
        st.healthy = 3;
        st.dead = 6;
        st.hero = Hero::Dead;
        s.end_turn(&mut st);
        assert!(st.broken, "3 of 10 standing is below 35%");
        let mut st = s.start();
        st.healthy = 3;
        st.dead = 6;
        s.end_turn(&mut st);
        assert!(!st.broken, "4 of 10 standing is not");
    }

    #[test]
    fn necrons_self_heal_and_repair_except_after_a_one() {
        let s = squad(10, false, true);
        let mut st = s.start();
        st.healthy = 6;
        st.wounded = 2;
        st.destroyed = 2;
        s.end_turn(&mut st);
        assert_eq!((st.healthy, st.wounded, st.shaken), (8, 0, false));
        let law = s.repair_law(&st);
        let all_up: f64 = law
            .iter()
            .filter(|(x, _)| x.healthy == 10)
            .map(|(_, p)| p)
            .sum();
        assert!((all_up - 1.0 / 9.0).abs() < 1e-12, "5+ twice");
        let mut st = s.start();
        s.land(
            &mut st,
            Landed {
                at_hero: false,
                effect: Some(Effect::Dead),
                natural_one: true,
            },
        );
        assert_eq!((st.dead, st.destroyed), (1, 0), "a D20 roll of 1: for good");
    }

    #[test]
    fn one_bolt_pistol_turn_on_one_trooper_by_hand() {
        // two 1-AP shots at 8 or less; a 20 ends the turn's fire
        let model = squad(1, false, false).into_model();
        let exact = model.exact().unwrap();
        let dead_at = model
            .metrics()
            .iter()
            .position(|m| m.name == "mean_dead")
            .unwrap();
        let (hit, miss) = (8.0 / 20.0, 11.0 / 20.0);
        let third = 1.0 / 3.0;
        // dead on shot 1; or wounded/ducked/missed then shot 2 finishes it
        let p = hit * third
            + hit * third * hit * (2.0 * third)
            + hit * third * hit * third
            + miss * hit * third;
        assert!(
            (exact[dead_at] - p).abs() < 1e-12,
            "{} vs {p}",
            exact[dead_at]
        );
    }
}
