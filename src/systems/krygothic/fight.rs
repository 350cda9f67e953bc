//! Close combat over a round of action points (Chapter 4 with Chapter 3's
//! costs): one attack is not the fight. The attacker pays 1 AP per attack
//! ("This attack costs 1AP to initiate"; with several attackers "each
//! attack costs an individual AP") and 2, 3, ... AP for the extra wounds of
//! an attack; the defender pays 1 AP per active defence. The fight goes on
//! until the attacker's AP run out, a side is taken out, the defender
//! breaks off, or the attacker freezes 2" before a fear-causing defender.
//! A counter attack's free attack is fought; a weapon broken by a bunt or
//! a deflect stays broken; the initiator's or charger's CC bonus, the
//! charger's -2 Body and the fear test's halved CC hold for their first
//! attack (or the whole fight, as a reading).
//!
//! One step function plays an attack and what follows it; the exact law
//! runs it over the distribution of fight states (a dynamic programme over
//! AP left, wounds, weapons intact and the first-attack flags, each attack
//! from [`Exchange::law_given`]), the sampler runs it on real dice.

use super::close::{
    ATTACK_WORDS, ATTACKS, Attack, CcOut, DEFENCE_WORDS, DEFENCES, Defence, Dread, Exchange, Fight,
    SituationParams, choices, dread_of, played, unavailable,
};
use super::dice::{Reading, attribute_check, p_attribute_check};
use crate::dice::{BatchedRoller, Metric, MetricSink, Roller, Tally, Times};
use crate::engine::outcome_model::{OutcomeModel, Outcomes};
use crate::engine::walk::{Counts, SharedLaws, Walk};
use crate::systems::{FromParam, Given, Opt, ParamDecl, ParamGroup};
use crate::systems::{MetricDecl, MetricDef, MetricList, Model, ParamError, Params, Sampler};
use crate::systems::{Refusal, Scenario};
use std::collections::BTreeMap;
use std::marker::PhantomData;
use std::sync::Mutex;

/// The `close_combat_fight` scenario: what it asks, its parameters and metrics, its
/// builder, test points, bad inputs and naive loop.
pub const CLOSE_COMBAT_FIGHT_SCENARIO: Scenario = Scenario {
    name: "close_combat_fight",
    about: "a close-combat fight over the attacker's AP: attacks at 1 AP, extra wounds at 2, 3, ... AP, counter attacks fought, weapons breaking, fear's freeze",
    seed_section: "Chapter 4: Steps for Close Combat; Multiple wounds; Critical passes and fails; Chapter 3: CC attacks; Chapter 6: Fear",
    params: FightParams::decls,
    metrics: || METRICS.to_vec(),
    build,
    variants: &[
        "seven_plus",
        "critical_pass",
        "deflect_break",
        "counter_roll",
    ],
    test_points: TEST_POINTS,
    refusals: &[
        Refusal {
            what: "a fight without the attacker's AP",
            point: 0,
            set: &[],
            unset: &["attacker_ap"],
            field: "attacker_ap",
            words: &["missing: set attacker_ap"],
        },
        Refusal {
            what: "a fall-back attack that needs the broken weapon",
            point: 0,
            set: &[("attack_when_broken", "bunt")],
            unset: &[],
            field: "attack_when_broken",
            words: &["cannot need the ranged weapon"],
        },
        Refusal {
            what: "a weapon counter attack without a weapon",
            point: 0,
            set: &[("counter_attack", "weapon")],
            unset: &[],
            field: "counter_attack",
            words: &["defender's close-combat weapon"],
        },
        Refusal {
            what: "more wounds than a unit takes",
            point: 0,
            set: &[("defender_wounds", "9")],
            unset: &[],
            field: "defender_wounds",
            words: &["9 is impossible: must be from 1 to 6"],
        },
    ],
    naive: crate::systems::krygothic::naive::CLOSE_COMBAT_FIGHT,
};

/// What "the first round of combat" covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FirstRound {
    /// The attacker's first attack: Fear's "halve their CC attribute for
    /// the first attack" is summed up as "halve his CC stat for first
    /// round", so a round is one attack (the default).
    FirstAttack,
    /// Every attack of this fight (one AP round).
    WholeFight,
}

/// A fight's plan: the situation, each side's choices and budgets.
#[derive(Clone, Copy, Debug)]
pub struct Plan {
    /// Both sides and the first round's situation (initiator, charge,
    /// fear caused by the attacker).
    pub fight: Fight,
    /// The attack type, every attack.
    pub attack: Attack,
    /// The attack once the attacker's ranged weapon has broken (a bunt or
    /// point blank shot cannot be made any more).
    pub attack_when_broken: Attack,
    /// The defence planned, every attack ("if it can": see
    /// [`played`]); passive once the defender's AP are spent.
    pub defence: Defence,
    /// The defender's free attack won by a counter attack.
    pub counter_attack: Attack,
    /// The attacker's AP for the fight.
    pub attacker_ap: u8,
    /// The defender's AP for active defences (and its extra wounds).
    pub defender_ap: u8,
    /// Wounds that take the attacker out.
    pub attacker_wounds: u8,
    /// Wounds that take the defender out.
    pub defender_wounds: u8,
    /// Pay for extra wounds while the AP last (else count one per attack).
    pub buy_extra_wounds: bool,
    /// What the first round covers.
    pub first_round: FirstRound,
    /// Fear or pure horror caused by the defender: the attacker tests
    /// before moving in, and freezes 2" out on a fail.
    pub defender_causes: Dread,
}

/// Where a fight stands (and, once it has ended, how it ended).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FightState {
    /// The attacker's AP left.
    pub att_ap: u8,
    /// The defender's AP left.
    pub def_ap: u8,
    /// Wounds the attacker has suffered (its own critical fails included).
    pub att_wounds: u8,
    /// Wounds the defender has suffered.
    pub def_wounds: u8,
    /// The attacker's ranged weapon has broken (bunt).
    pub att_broken: bool,
    /// The defender's ranged weapon has broken (deflect, or its bunt).
    pub def_broken: bool,
    /// Attacks the attacker paid for.
    pub attacks: u8,
    /// Free attacks the attacker won by the defender's counter attacks.
    pub att_free: u8,
    /// Free attacks the defender won by counter attacking.
    pub def_free: u8,
    /// The defender failed its test against the attacker's fear.
    pub fear_failed: bool,
    /// The attacker failed its test against the defender's fear: frozen 2"
    /// out, no attack.
    pub frozen: bool,
    /// The defender broke off.
    pub broke_off: bool,
}

/// Which side makes an attack.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Side {
    Attacker,
    Defender,
}

/// How a step learns what the dice do: every outcome with its probability
/// (the exact law) or the one outcome rolled (the sampler).
trait Chance {
    /// An attack's outcomes given the fear test.
    fn attack(&mut self, key: Key, ex: &Exchange, fear_failed: bool) -> Vec<(CcOut, f64)>;
    /// A WILL test of `dice` dice against 6: passed or not.
    fn will_test(&mut self, dice: u32, reading: Reading) -> Vec<(bool, f64)>;
}

/// What an attack's law depends on in a fight.
type Key = (Side, Attack, Defence, [bool; 6]);

/// The exact law, each attack's law computed once.
struct Exact(BTreeMap<Key, Vec<(CcOut, f64)>>);

impl Chance for Exact {
    fn attack(&mut self, key: Key, ex: &Exchange, fear_failed: bool) -> Vec<(CcOut, f64)> {
        self.0
            .entry(key)
            .or_insert_with(|| {
                // outcomes a certain roll rules out stay out of the states
                let mut law = ex.law_given(fear_failed);
                law.retain(|x| x.1 > 0.0);
                law
            })
            .clone()
    }

    fn will_test(&mut self, dice: u32, reading: Reading) -> Vec<(bool, f64)> {
        let p = p_attribute_check(dice, 6, reading);
        [(true, p), (false, 1.0 - p)]
            .into_iter()
            .filter(|x| x.1 > 0.0)
            .collect()
    }
}

/// Real dice.
struct Dice<'a, R>(&'a mut R);

impl<R: Roller> Chance for Dice<'_, R> {
    fn attack(&mut self, _: Key, ex: &Exchange, fear_failed: bool) -> Vec<(CcOut, f64)> {
        vec![(ex.roll_given(self.0, fear_failed), 1.0)]
    }

    fn will_test(&mut self, dice: u32, reading: Reading) -> Vec<(bool, f64)> {
        vec![(attribute_check(self.0, dice, 6, reading), 1.0)]
    }
}

/// Whether an attack needs the ranged weapon.
fn needs_ranged(a: Attack) -> bool {
    matches!(a, Attack::Bunt | Attack::PointBlank)
}

/// The WILL dice of a test against `dread` (pure horror halves WILL).
fn will_dice(will: i32, dread: Dread) -> u32 {
    match dread {
        Dread::PureHorror => (will / 2).max(0) as u32,
        _ => will.max(0) as u32,
    }
}

impl Plan {
    /// Whether the fight is over.
    pub fn ended(&self, s: &FightState) -> bool {
        s.frozen
            || s.broke_off
            || s.att_ap == 0
            || s.att_wounds >= self.attacker_wounds
            || s.def_wounds >= self.defender_wounds
    }

    fn start(&self, ch: &mut impl Chance) -> Vec<(FightState, f64)> {
        let s = FightState {
            att_ap: self.attacker_ap,
            def_ap: self.defender_ap,
            ..FightState::default()
        };
        let reading = self.fight.reading;
        let freeze = match self.defender_causes {
            Dread::None => vec![(true, 1.0)],
            d => ch.will_test(will_dice(self.fight.attacker.will, d), reading),
        };
        let mut out = Vec::new();
        for (passed, p) in freeze {
            if !passed {
                // "they freeze 2 inches out from the model": the AP of the
                // attack is spent, no attack is made
                let frozen = FightState {
                    frozen: true,
                    att_ap: s.att_ap - 1,
                    ..s
                };
                out.push((frozen, p));
                continue;
            }
            let fear = match self.fight.dread {
                Dread::None => vec![(true, 1.0)],
                d => ch.will_test(will_dice(self.fight.defender.will, d), reading),
            };
            for (held, q) in fear {
                let t = FightState {
                    fear_failed: !held,
                    ..s
                };
                out.push((t, p * q));
            }
        }
        out
    }

    /// The attack type now, with the ranged weapon broken or not.
    fn attack_now(&self, a: Attack, broken: bool) -> Attack {
        if broken && needs_ranged(a) {
            self.attack_when_broken
        } else {
            a
        }
    }

    /// The situation of one of the attacker's attacks.
    fn attacker_fight(&self, s: &FightState, bonus: bool, first: bool) -> Fight {
        let mut f = self.fight;
        f.initiator &= bonus;
        f.charged &= bonus;
        // "a body stat of -2 for the first attack the opponent has"
        f.defender_charged &= first;
        f.attacker.ranged_weapon &= !s.att_broken;
        f.defender.ranged_weapon &= !s.def_broken;
        f.dread = Dread::None;
        f
    }

    /// The situation of the defender's free attack on the attacker.
    fn defender_fight(&self, s: &FightState) -> Fight {
        let f = &self.fight;
        let mut attacker = f.defender;
        attacker.ranged_weapon &= !s.def_broken;
        let mut defender = f.attacker;
        defender.ranged_weapon &= !s.att_broken;
        Fight {
            attacker,
            defender,
            initiator: false,
            charged: false,
            // the charger "receives a body stat of -2 for the first attack
            // the opponent has"
            defender_charged: f.charged && s.def_free == 0,
            dread: Dread::None,
            reading: f.reading,
            critical: f.critical,
            deflect_break: f.deflect_break,
            counter_roll: f.counter_roll,
        }
    }

    /// Wounds that count from `passes` passing wound dice: the first is
    /// free, the k-th costs k AP ("2 AP for the second wound, 3 AP for the
    /// third and so on"), none beyond what takes the victim out.
    fn counted(&self, passes: u8, ap: &mut u8, free: bool, double: bool, room: u8) -> u8 {
        if passes == 0 {
            return 0;
        }
        let per = if double { 2 } else { 1 };
        let mut counted = 1u8;
        for k in 2..=passes {
            if counted * per >= room {
                break;
            }
            if free {
                counted += 1;
            } else if self.buy_extra_wounds && *ap >= k {
                *ap -= k;
                counted += 1;
            } else {
                break;
            }
        }
        counted * per
    }

    /// The state after `side`'s attack `ex` came out as `o`.
    fn apply(&self, s: &mut FightState, side: Side, ex: &Exchange, o: &CcOut) {
        let passes = if o.critical_pass {
            o.wounds / 2
        } else {
            o.wounds
        };
        let free = ex.weapon_effect(|w| w.multiple_wounds);
        match side {
            Side::Attacker => {
                let room = self.defender_wounds - s.def_wounds;
                let w = self.counted(passes, &mut s.att_ap, free, o.critical_pass, room);
                s.def_wounds = (s.def_wounds + w).min(self.defender_wounds);
                s.att_wounds = (s.att_wounds + o.own_wounds).min(self.attacker_wounds);
                s.att_broken |= o.attacker_weapon_breaks;
                s.def_broken |= o.defender_weapon_breaks;
                if o.knocked_down {
                    // "must spend 1 AP getting up"
                    s.def_ap = s.def_ap.saturating_sub(1);
                }
            }
            Side::Defender => {
                let room = self.attacker_wounds - s.att_wounds;
                let w = self.counted(passes, &mut s.def_ap, free, o.critical_pass, room);
                s.att_wounds = (s.att_wounds + w).min(self.attacker_wounds);
                s.def_wounds = (s.def_wounds + o.own_wounds).min(self.defender_wounds);
                s.def_broken |= o.attacker_weapon_breaks;
                if o.knocked_down {
                    s.att_ap = s.att_ap.saturating_sub(1);
                }
            }
        }
    }

    /// A free attack, defended passively (it costs the victim nothing, and
    /// a passive defence cannot win another free attack).
    fn free_attack(
        &self,
        s: FightState,
        side: Side,
        ch: &mut impl Chance,
    ) -> Vec<(FightState, f64)> {
        let (fight, attack, fear) = match side {
            Side::Attacker => {
                let bonus = self.first_round == FirstRound::WholeFight;
                let f = self.attacker_fight(&s, bonus, false);
                let a = self.attack_now(self.attack, s.att_broken);
                (f, a, s.fear_failed && bonus)
            }
            Side::Defender => {
                let f = self.defender_fight(&s);
                let a = self.attack_now(self.counter_attack, s.def_broken);
                (f, a, false)
            }
        };
        let ex = Exchange {
            fight,
            attack,
            defence: Defence::Passive,
        };
        let key = key(side, &ex, fear);
        ch.attack(key, &ex, fear)
            .into_iter()
            .map(|(o, p)| {
                let mut t = s;
                match side {
                    Side::Attacker => t.att_free += 1,
                    Side::Defender => t.def_free += 1,
                }
                self.apply(&mut t, side, &ex, &o);
                (t, p)
            })
            .collect()
    }

    /// One paid attack and its free attack, from a fight not yet over.
    fn step(&self, s: FightState, ch: &mut impl Chance) -> Vec<(FightState, f64)> {
        let first = s.attacks == 0;
        let bonus = first || self.first_round == FirstRound::WholeFight;
        let mut s0 = s;
        s0.att_ap -= 1;
        s0.attacks += 1;
        let fight = self.attacker_fight(&s, bonus, first);
        let attack = self.attack_now(self.attack, s.att_broken);
        let mut defence = played(&fight, attack, self.defence);
        if s.def_ap == 0 {
            defence = Defence::Passive;
        }
        if defence != Defence::Passive {
            s0.def_ap -= 1;
        }
        let ex = Exchange {
            fight,
            attack,
            defence,
        };
        let fear = s.fear_failed && bonus;
        let mut out = Vec::new();
        for (o, p) in ch.attack(key(Side::Attacker, &ex, fear), &ex, fear) {
            let mut t = s0;
            self.apply(&mut t, Side::Attacker, &ex, &o);
            let someone_out =
                t.att_wounds >= self.attacker_wounds || t.def_wounds >= self.defender_wounds;
            t.broke_off = o.breaks_off && !someone_out;
            // a free attack costs no AP: it is fought even when this attack
            // spent the attacker's last AP
            let free = match o.free_attack {
                1 => Some(Side::Defender),
                2 => Some(Side::Attacker),
                _ => None,
            };
            match free {
                Some(side) if !someone_out => {
                    for (u, q) in self.free_attack(t, side, ch) {
                        out.push((u, p * q));
                    }
                }
                _ => out.push((t, p)),
            }
        }
        out
    }

    /// The exact law of the fight's end.
    pub fn law(&self) -> Vec<(FightState, f64)> {
        let mut ch = Exact(BTreeMap::new());
        let mut live: BTreeMap<FightState, f64> = BTreeMap::new();
        for (s, p) in self.start(&mut ch) {
            *live.entry(s).or_insert(0.0) += p;
        }
        let mut done: BTreeMap<FightState, f64> = BTreeMap::new();
        while !live.is_empty() {
            let mut next = BTreeMap::new();
            for (s, p) in live {
                if self.ended(&s) {
                    *done.entry(s).or_insert(0.0) += p;
                    continue;
                }
                for (t, q) in self.step(s, &mut ch) {
                    *next.entry(t).or_insert(0.0) += p * q;
                }
            }
            live = next;
        }
        done.into_iter().collect()
    }

    /// The fight on real dice.
    pub fn roll<R: Roller>(&self, dice: &mut R) -> FightState {
        let mut ch = Dice(dice);
        let mut s = self.start(&mut ch)[0].0;
        while !self.ended(&s) {
            s = self.step(s, &mut ch)[0].0;
        }
        s
    }

    /// Expected wounds on the defender over the fight.
    pub fn mean_defender_wounds(&self) -> f64 {
        self.law()
            .iter()
            .map(|(s, p)| f64::from(s.def_wounds) * p)
            .sum()
    }
}

/// The cache key of an attack in a fight: everything its law reads that
/// the plan does not fix.
fn key(side: Side, ex: &Exchange, fear: bool) -> Key {
    let f = &ex.fight;
    (
        side,
        ex.attack,
        ex.defence,
        [
            f.initiator,
            f.charged,
            f.defender_charged,
            f.attacker.ranged_weapon,
            f.defender.ranged_weapon,
            fear,
        ],
    )
}

/// Every metric of the fight scenario.
pub const METRICS: [MetricDecl; 15] = [
    MetricDecl::probability(
        "p_defender_out",
        "P(defender taken out)",
        "P(the defender suffers the wounds that take it out)",
    ),
    MetricDecl::probability(
        "p_attacker_out",
        "P(attacker taken out)",
        "P(the attacker suffers the wounds that take it out: free attacks and its own critical fails)",
    ),
    MetricDecl::mean(
        "mean_defender_wounds",
        "mean wounds on the defender",
        "expected wounds the defender suffers in the fight (extra wounds counted only when paid for)",
    ),
    MetricDecl::mean(
        "mean_attacker_wounds",
        "mean wounds on the attacker",
        "expected wounds the attacker suffers (the defender's free attacks, its own critical fails)",
    ),
    MetricDecl::mean(
        "mean_attacks",
        "mean attacks paid",
        "expected attacks the attacker pays 1 AP for",
    ),
    MetricDecl::mean(
        "mean_attacker_free_attacks",
        "mean free attacks (attacker)",
        "expected free attacks the attacker wins when a counter attack fails",
    ),
    MetricDecl::mean(
        "mean_defender_free_attacks",
        "mean free attacks (defender)",
        "expected free attacks the defender wins by counter attacking",
    ),
    MetricDecl::mean(
        "mean_attacker_ap",
        "mean AP spent (attacker)",
        "expected attacker AP spent: 1 per attack, 2, 3, ... per extra wound, 1 per getting up",
    ),
    MetricDecl::mean(
        "mean_defender_ap",
        "mean AP spent (defender)",
        "expected defender AP spent: 1 per active defence, extra wounds of its free attacks, getting up",
    ),
    MetricDecl::probability(
        "p_frozen",
        "P(frozen by fear: no attack)",
        "the defender causes fear: P(the attacker fails its WILL test against 6 and freezes 2\" out from the model: no attack)",
    ),
    MetricDecl::probability(
        "p_fear_failed",
        "P(defender's fear test failed)",
        "the attacker causes fear: P(the defender fails its WILL test against 6: CC halved for the first round)",
    ),
    MetricDecl::probability(
        "p_broke_off",
        "P(defender broke off)",
        "break off: P(an attack leaves no attacking die and the defender leaves the combat)",
    ),
    MetricDecl::probability(
        "p_attacker_weapon_broken",
        "P(attacker's ranged weapon broken)",
        "bunt: P(the attacker's ranged weapon breaks during the fight)",
    ),
    MetricDecl::probability(
        "p_defender_weapon_broken",
        "P(defender's ranged weapon broken)",
        "deflect (or the defender's bunt): P(the defender's ranged weapon breaks during the fight)",
    ),
    MetricDecl::probability(
        "defender_wounds={k}",
        "P({k} wounds on the defender)",
        "P(the defender ends the fight with exactly k wounds)",
    ),
];

/// The fight rule with its metric handles.
pub struct FightRule {
    plan: Plan,
    list: MetricList,
    m: [Metric; 14],
    wounds: Vec<Metric>,
}

impl Outcomes for FightRule {
    type Out = FightState;

    fn metrics(&self) -> &MetricList {
        &self.list
    }

    fn sample<R: Roller>(&self, dice: &mut R) -> FightState {
        self.plan.roll(dice)
    }

    fn law(&self) -> Vec<(FightState, f64)> {
        self.plan.law()
    }

    fn record(&self, s: &FightState, sink: &mut impl MetricSink) {
        let p = &self.plan;
        let vals = [
            u64::from(s.def_wounds >= p.defender_wounds),
            u64::from(s.att_wounds >= p.attacker_wounds),
            u64::from(s.def_wounds),
            u64::from(s.att_wounds),
            u64::from(s.attacks),
            u64::from(s.att_free),
            u64::from(s.def_free),
            u64::from(p.attacker_ap - s.att_ap),
            u64::from(p.defender_ap - s.def_ap),
            u64::from(s.frozen),
            u64::from(s.fear_failed),
            u64::from(s.broke_off),
            u64::from(s.att_broken),
            u64::from(s.def_broken),
        ];
        for (h, v) in self.m.iter().zip(vals) {
            sink.record(*h, v);
        }
        sink.record(self.wounds[usize::from(s.def_wounds)], 1);
    }
}

/// How a scenario asks for a fight's plan parameters ([`PlanParams`]):
/// the fight requires both AP budgets; the game uses them only with its
/// `per_ap` payoff.
pub trait PlanNeeds {
    /// Declaration `decl` of the plan's parameters, as this scenario needs
    /// it (`budgets`: the names of both AP budgets).
    fn need(decl: ParamDecl, budgets: &[String; 2]) -> ParamDecl;
}

/// The fight scenario's: both AP budgets required.
#[derive(Clone, Debug)]
pub struct BudgetsRequired;

impl PlanNeeds for BudgetsRequired {
    fn need(decl: ParamDecl, budgets: &[String; 2]) -> ParamDecl {
        if budgets.contains(&decl.name) {
            decl.required()
        } else {
            decl
        }
    }
}

/// The game's: every plan parameter only with payoff = "per_ap", which
/// needs both budgets.
#[derive(Clone, Debug)]
pub struct WithPerApPayoff;

impl PlanNeeds for WithPerApPayoff {
    fn need(decl: ParamDecl, budgets: &[String; 2]) -> ParamDecl {
        let name = decl.name.clone();
        budgets
            .iter()
            .filter(|n| **n != name)
            .fold(decl.needs("payoff", "per_ap"), |d, n| d.needs_any(n, "4"))
    }
}

/// Parameters of a fight's plan beyond the situation, a group the fight
/// and the game's `per_ap` payoff share; `N` says how the scenario needs
/// them. Each knows whether it was given: the game refuses a fight's
/// parameter given without a fight to fight.
#[derive(Clone, Debug)]
pub struct PlanParams<N> {
    /// The group's prefix, for the names in errors.
    prefix: String,
    attacker_ap: Opt<i64>,
    defender_ap: Opt<i64>,
    attacker_wounds: Given<i64>,
    defender_wounds: Given<i64>,
    extra_wounds: Given<String>,
    first_round: Given<String>,
    counter_attack: Given<String>,
    attack_when_broken: Given<String>,
    defender_causes: Given<String>,
    needs: PhantomData<N>,
}

/// The plan's parameters, in declaration order.
const PLAN: [&str; 9] = [
    "attacker_ap",
    "defender_ap",
    "attacker_wounds",
    "defender_wounds",
    "extra_wounds",
    "first_round",
    "counter_attack",
    "attack_when_broken",
    "defender_causes",
];

impl<N: PlanNeeds> ParamGroup for PlanParams<N> {
    fn decls_with(prefix: &str) -> Vec<ParamDecl> {
        let [ap_a, ap_d, w_a, w_d, extra, first, counter, broken, causes] =
            PLAN.map(|n| format!("{prefix}{n}"));
        let budgets = [ap_a.clone(), ap_d.clone()];
        vec![
            ParamDecl::int(ap_a, 1, 20)
                .about("the attacker's AP for the fight: 1 per attack, 2, 3, ... per extra wound")
                .seed("Chapter 3: CC attacks - standard (\"This attack costs 1AP\"); Multiple wounds"),
            ParamDecl::int(ap_d, 0, 20)
                .about("the defender's AP: 1 per active defence (passive once spent)")
                .seed("Step 1: Defender: Choose a defense class"),
            ParamDecl::int(w_a, 1, 6)
                .default("2")
                .about("wounds that take the attacker out")
                .seed("Chapter 2: Body (\"most units can only take 2 wounds\")"),
            ParamDecl::int(w_d, 1, 6)
                .default("2")
                .about("wounds that take the defender out")
                .seed("Chapter 2: Body (\"most units can only take 2 wounds\")"),
            ParamDecl::choice(extra, &["buy", "skip"])
                .default("buy")
                .about("buy: pay 2, 3, ... AP for each extra wound while the AP last; skip: one wound per attack, the AP kept for attacks")
                .seed("Step 6: Multiple wounds"),
            ParamDecl::choice(first, &["first_attack", "whole_fight"])
                .default("first_attack")
                .about("what 'the first round of combat' covers for the initiator's/charger's CC bonus and the fear test's halved CC")
                .seed("Chapter 3: CC attacks; Chapter 6: Fear"),
            ParamDecl::choice(counter, ATTACK_WORDS)
                .default("punch")
                .about("the defender's free attack when its counter attack wins")
                .seed("Step 4: Counter attack"),
            ParamDecl::choice(broken, ATTACK_WORDS)
                .default("punch")
                .about("the attack made instead of a bunt or point blank shot once that side's ranged weapon has broken")
                .seed("Step 2: Bunt (\"On a 6 the weapon breaks\")"),
            ParamDecl::choice(causes, &["nothing", "fear", "pure_horror"])
                .default("nothing")
                .about("the defender causes fear: the attacker tests WILL against 6 (halved for pure horror) before moving in, and freezes 2\" out on a fail")
                .seed("Chapter 6: Fear"),
        ]
        .into_iter()
        .map(|d| N::need(d, &budgets))
        .collect()
    }

    fn read_with(p: &Params, prefix: &str) -> Result<Self, ParamError> {
        fn read<T: FromParam>(p: &Params, prefix: &str, name: &str) -> Result<T, ParamError> {
            T::from_param(p, &format!("{prefix}{name}"))
        }
        Ok(PlanParams {
            prefix: prefix.to_string(),
            attacker_ap: read(p, prefix, "attacker_ap")?,
            defender_ap: read(p, prefix, "defender_ap")?,
            attacker_wounds: read(p, prefix, "attacker_wounds")?,
            defender_wounds: read(p, prefix, "defender_wounds")?,
            extra_wounds: read(p, prefix, "extra_wounds")?,
            first_round: read(p, prefix, "first_round")?,
            counter_attack: read(p, prefix, "counter_attack")?,
            attack_when_broken: read(p, prefix, "attack_when_broken")?,
            defender_causes: read(p, prefix, "defender_causes")?,
            needs: PhantomData,
        })
    }
}

/// The attack named `word` (the attack words of [`ATTACKS`]).
fn attack_named(word: &str) -> Attack {
    ATTACKS
        .iter()
        .find(|x| x.1 == word)
        .map_or(Attack::Punch, |x| x.0)
}

impl<N> PlanParams<N> {
    /// The parameter `name` of the plan under the group's prefix.
    fn name(&self, name: &str) -> String {
        format!("{}{name}", self.prefix)
    }

    /// The first of the plan's parameters given, in declaration order.
    pub fn first_given(&self) -> Option<String> {
        let given = [
            self.attacker_ap.value.is_some(),
            self.defender_ap.value.is_some(),
            self.attacker_wounds.given,
            self.defender_wounds.given,
            self.extra_wounds.given,
            self.first_round.given,
            self.counter_attack.given,
            self.attack_when_broken.given,
            self.defender_causes.given,
        ];
        PLAN.iter()
            .zip(given)
            .find(|(_, given)| *given)
            .map(|(n, _)| self.name(n))
    }

    /// The plan of `fight` for `attack` and `defence`.
    pub fn plan(&self, fight: Fight, attack: Attack, defence: Defence) -> Result<Plan, ParamError> {
        let when_broken = attack_named(&self.attack_when_broken.value);
        let counter = attack_named(&self.counter_attack.value);
        if needs_ranged(when_broken) {
            return Err(ParamError::new(
                self.name("attack_when_broken"),
                "the attack made once the ranged weapon has broken cannot need the ranged weapon",
            ));
        }
        if let Some(why) = unavailable(&fight, when_broken, Defence::Passive) {
            return Err(ParamError::new(self.name("attack_when_broken"), why));
        }
        let reversed = Fight {
            attacker: fight.defender,
            defender: fight.attacker,
            ..fight
        };
        if let Some(why) = unavailable(&reversed, counter, Defence::Passive) {
            let why = why.replace("attacker", "defender");
            return Err(ParamError::new(self.name("counter_attack"), why));
        }
        if needs_ranged(counter)
            && let Some(why) = unavailable(&reversed, when_broken, Defence::Passive)
        {
            return Err(ParamError::new(
                self.name("attack_when_broken"),
                format!("the defender's counter attack falls back to it: {why}"),
            ));
        }
        Ok(Plan {
            fight,
            attack,
            attack_when_broken: when_broken,
            defence,
            counter_attack: counter,
            attacker_ap: self.attacker_ap.need()? as u8,
            defender_ap: self.defender_ap.need()? as u8,
            attacker_wounds: self.attacker_wounds.value as u8,
            defender_wounds: self.defender_wounds.value as u8,
            buy_extra_wounds: self.extra_wounds.value == "buy",
            first_round: if self.first_round.value == "whole_fight" {
                FirstRound::WholeFight
            } else {
                FirstRound::FirstAttack
            },
            defender_causes: dread_of(&self.defender_causes.value),
        })
    }
}

crate::param_struct! {
    /// Parameters of the fight scenario: both sides and the situation,
    /// the attack and defence planned, and the fight's plan.
    pub struct FightParams {
        ..situation: SituationParams,
        attack: String = choice(ATTACK_WORDS)
            .default("weapon")
            .about("the attack type of every attack (Step 2)")
            .seed("Step 2: Attacker: Choose an attack"),
        defence: String = choice(DEFENCE_WORDS)
            .default("passive")
            .about("the defence planned against every attack (Steps 1 and 4)")
            .seed("Step 4: Defender: Choose defense type"),
        ..plan: PlanParams<BudgetsRequired>,
    }
}

/// Builds the fight model.
pub fn build(p: &Params, v: &Params) -> Result<Box<dyn Model>, ParamError> {
    let p = FightParams::read(p)?;
    let mut fight = p.situation.fight(v)?;
    let attack = attack_named(&p.attack);
    let defence = DEFENCES
        .iter()
        .find(|x| x.1 == p.defence)
        .map_or(Defence::Passive, |x| x.0);
    fight.counter_roll = super::close::counter_roll(v, defence == Defence::Counter)?;
    if let Some(why) = unavailable(&fight, attack, Defence::Passive) {
        return Err(ParamError::new(crate::param_name!(FightParams.attack), why));
    }
    let (_, defences) = choices(&fight);
    if !defences.iter().any(|(d, _)| *d == defence) {
        let why = ATTACKS
            .iter()
            .find_map(|(a, _)| unavailable(&fight, *a, defence))
            .unwrap_or("the defender cannot use this defence");
        return Err(ParamError::new(
            crate::param_name!(FightParams.defence),
            why,
        ));
    }
    let plan = p.plan.plan(fight, attack, defence)?;
    Ok(Box::new(FightModel::new(FightRule::new(plan))))
}

/// A node of the fight's walk: before the start (`None`: the fear and
/// freeze tests still to roll) or a fight state.
type Node = Option<FightState>;

/// The fight sampled an exchange at a time: the engine's walk over fight
/// states, the start and each exchange one draw from its exact law (the
/// very steps [`Plan::law`] chains, computed once per state); the final
/// law itself is never sampled. The reference sampler
/// ([`Plan::roll`]) rolls every die.
pub struct FightModel {
    model: OutcomeModel<FightRule>,
    laws: SharedLaws<Node>,
    /// The attacks' laws, computed once per key.
    chance: Mutex<Exact>,
}

impl FightModel {
    fn new(rule: FightRule) -> Self {
        FightModel {
            model: OutcomeModel::new(rule),
            laws: SharedLaws::default(),
            chance: Mutex::new(Exact(BTreeMap::new())),
        }
    }

    fn law(&self, node: &Node) -> Vec<(Node, f64)> {
        let plan = &self.model.rule().plan;
        let mut ch = self.chance.lock().unwrap_or_else(|p| p.into_inner());
        let out = match node {
            None => plan.start(&mut *ch),
            Some(s) => plan.step(*s, &mut *ch),
        };
        out.into_iter().map(|(t, p)| (Some(t), p)).collect()
    }
}

impl Model for FightModel {
    fn metrics(&self) -> &[MetricDef] {
        self.model.metrics()
    }

    fn run_chunk(&self, roller: &mut BatchedRoller, trials: u64, tally: &mut Tally) {
        let plan = &self.model.rule().plan;
        let mut walk: Walk<Node> = Walk::default();
        let start = walk.id(&None);
        let law = |n: &Node| self.laws.get(n, || Some(self.law(n)));
        let play = |n: &Node, r: &mut BatchedRoller| {
            let mut ch = Dice(r);
            Some(match n {
                None => plan.start(&mut ch)[0].0,
                Some(s) => plan.step(*s, &mut ch)[0].0,
            })
        };
        // the engine's lanes: exchanges of four fights side by side, a
        // fight that ends handing its lane on without a branch
        walk.run_until_over(
            start,
            trials,
            roller,
            law,
            play,
            |n: &Node| *n,
            |n: &Node| n.is_some_and(|s| plan.ended(&s)),
            &mut Counts::default(),
            None,
        );
        for (node, count) in walk.ends() {
            if let Some(s) = node {
                self.model.rule().record(
                    s,
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
        Sampler::Custom("exchange laws (the engine's walk over fight states)")
    }

    fn run_reference(&self, roller: &mut BatchedRoller, trials: u64, tally: &mut Tally) {
        self.model.run_reference(roller, trials, tally);
    }

    fn exact(&self) -> Option<Vec<f64>> {
        self.model.exact()
    }

    fn sample_one(&self, roller: &mut BatchedRoller, values: &mut [u64]) {
        self.model.sample_one(roller, values);
    }
}

impl FightRule {
    /// The rule of `plan`.
    pub fn new(plan: Plan) -> Self {
        let mut list = MetricList::new();
        let m = std::array::from_fn(|i| list.add(&METRICS[i]));
        let wounds = list.family(&METRICS[14], 0..=plan.defender_wounds);
        FightRule {
            plan,
            list,
            m,
            wounds,
        }
    }
}

/// Conformance points.
pub const TEST_POINTS: &[&[(&str, &str)]] = &[
    &[
        ("attacker", "average_joe"),
        ("defender", "average_joe"),
        ("attack", "leg_sweep"),
        ("attacker_ap", "6"),
        ("defender_ap", "3"),
        ("defence", "dodge"),
        ("charged", "true"),
    ],
    &[
        ("attacker", "average_joe"),
        ("attacker_cc", "4"),
        ("attacker_strength", "3"),
        ("attacker_ranged_weapon", "true"),
        ("defender", "average_joe"),
        ("defender_cc", "3"),
        ("defender_ranged_weapon", "true"),
        ("attack", "bunt"),
        ("defence", "deflect"),
        ("attacker_ap", "8"),
        ("defender_ap", "4"),
        ("defender_wounds", "3"),
        ("attacker_causes", "fear"),
        ("first_round", "whole_fight"),
    ],
    &[
        ("attacker", "average_joe"),
        ("attacker_cc", "4"),
        ("attacker_weapon", "axe"),
        ("defender", "average_joe"),
        ("defender_cc", "4"),
        ("defender_strength", "3"),
        ("attack", "weapon"),
        ("defence", "counter_attack"),
        ("counter_attack", "kick"),
        ("attacker_ap", "7"),
        ("defender_ap", "5"),
        ("charged", "true"),
        ("defender_causes", "fear"),
    ],
    &[
        ("attacker", "average_joe"),
        ("attacker_cc", "5"),
        ("attacker_strength", "4"),
        ("defender", "average_joe"),
        ("defender_save", "1"),
        ("attack", "head_butt"),
        ("defence", "break_off"),
        ("attacker_ap", "9"),
        ("defender_ap", "2"),
        ("defender_wounds", "3"),
        ("extra_wounds", "skip"),
    ],
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::krygothic::dice::Critical;
    use crate::systems::krygothic::ranged::tests::Script;

    fn joe() -> super::super::close::Fighter {
        super::super::close::Fighter {
            cc: 2,
            strength: 2,
            speed: 3,
            body: 2,
            save: 0,
            will: 3,
            weapon: None,
            ranged_weapon: true,
        }
    }

    fn plan(attack: Attack, defence: Defence, attacker_ap: u8, defender_ap: u8) -> Plan {
        Plan {
            fight: Fight {
                attacker: joe(),
                defender: joe(),
                initiator: false,
                charged: false,
                defender_charged: false,
                dread: Dread::None,
                reading: Reading::Table,
                critical: Critical::ThreeSixes,
                deflect_break: crate::systems::krygothic::close::DeflectBreak::OnSix,
                counter_roll: crate::systems::krygothic::close::CounterRoll::Plain,
            },
            attack,
            attack_when_broken: Attack::Punch,
            defence,
            counter_attack: Attack::Punch,
            attacker_ap,
            defender_ap,
            attacker_wounds: 2,
            defender_wounds: 2,
            buy_extra_wounds: true,
            first_round: FirstRound::FirstAttack,
            defender_causes: Dread::None,
        }
    }

    /// The rules the fight encodes, quoted, are the seed's words.
    #[test]
    fn the_quoted_rules_are_the_seeds() {
        crate::systems::seed_text::assert_quoted(
            super::super::SEED,
            &[
                "This attack costs 1AP to initiate.",
                "each attack costs an individual AP",
                "The costs are 2 AP for the second wound, 3 AP for the third and so on.",
                "In the first round of combat, the charger receives a +2 bonus to their CC characteristic, but receives a body stat of -2 for the first attack the opponent has.",
                "In the first round of combat, the initiator of the close combat receives a +1 bonus to their CC characteristic.",
                "halve their CC attribute for the first attack the fear causing unit performs",
                "If unit fails, halve his CC stat for first round.",
                "If the unit fails, they freeze 2 inches out from the model",
                "most units can only take 2 wounds",
                "If at any point you roll all 1’s for you’re to hit roll, all damage is done to your own unit.",
                "If you get more successes than the attacker, you can attack once for free. If you fail, the attacker gets one attack for free.",
                "If hits are negated, roll a D6. On a 6 the weapon breaks.",
                "must spend 1 AP getting up",
            ],
        );
    }

    /// "for each dice that passes, the attacker can spend AP to make the
    /// extra wounds count. The costs are 2 AP for the second wound, 3 AP
    /// for the third and so on."
    #[test]
    fn extra_wounds_cost_two_then_three() {
        let mut p = plan(Attack::Kick, Defence::Passive, 9, 0);
        p.defender_wounds = 6;
        // three passes: 2 AP then 3 AP
        let mut ap = 5;
        assert_eq!(p.counted(3, &mut ap, false, false, 6), 3);
        assert_eq!(ap, 0);
        // 4 AP pay for the second wound only
        let mut ap = 4;
        assert_eq!(p.counted(3, &mut ap, false, false, 6), 2);
        assert_eq!(ap, 2);
        // "Multiple wounds: All dice that pass cause 1 wound each": free
        let mut ap = 0;
        assert_eq!(p.counted(3, &mut ap, true, false, 6), 3);
        // nothing is paid beyond the wounds that take the victim out
        let mut ap = 9;
        assert_eq!(p.counted(3, &mut ap, false, false, 2), 2);
        assert_eq!(ap, 7);
        // a critical pass doubles what counts
        let mut ap = 9;
        assert_eq!(p.counted(2, &mut ap, false, true, 6), 4);
        // skipping keeps the AP for attacks
        p.buy_extra_wounds = false;
        let mut ap = 9;
        assert_eq!(p.counted(3, &mut ap, false, false, 6), 1);
        assert_eq!(ap, 9);
    }

    /// The charger's "+2 bonus to their CC characteristic" in the first
    /// round (its first attack) and "a body stat of -2 for the first attack
    /// the opponent has"; the whole-fight reading keeps the bonus.
    #[test]
    fn first_round_bonuses() {
        let mut p = plan(Attack::Kick, Defence::Passive, 4, 0);
        p.fight.charged = true;
        let s = FightState::default();
        let n = |f: Fight| f.numbers(Attack::Kick, Defence::Passive, false);
        assert_eq!(n(p.attacker_fight(&s, true, true)).att_cc, 2 + 1 + 2);
        assert_eq!(n(p.attacker_fight(&s, false, false)).att_cc, 2 + 1);
        // the defender's first free attack hits the charger at Body 2 - 2
        let r = p.defender_fight(&s);
        assert_eq!(
            r.numbers(Attack::Punch, Defence::Passive, false).to_wound,
            0
        );
        let later = FightState { def_free: 1, ..s };
        let r = p.defender_fight(&later);
        assert_eq!(
            r.numbers(Attack::Punch, Defence::Passive, false).to_wound,
            2
        );
    }

    /// A fight on scripted dice: a bunt breaks the attacker's weapon and a
    /// deflect the defender's; the next attack is the fall-back punch, the
    /// deflect can no longer be made (passive, no AP paid), and a to-hit
    /// roll of all 1s turns the damage on the attacker: two wounds take it
    /// out.
    #[test]
    fn broken_weapons_carry_and_a_critical_fail_hurts_the_attacker() {
        let p = plan(Attack::Bunt, Defence::Deflect, 2, 2);
        let dice = vec![
            5, 5, // to hit: CC 2 dice against CC 2: two hits (keep Str 2 + 2)
            1, 1, 1, 3, // deflect: CC 2 + 2 dice against CC 2: one pass
            6, // the bunt hit: a 6 breaks the attacker's ranged weapon
            6, // hits negated: a 6 breaks the deflecting weapon
            1, // one die left to wound against Body 2: no wound
            1, 1, // second attack, a punch: all 1s, a critical fail
            1, 1, // the passive defence roll
            2, 2, // CC 2 dice (at most Str 3) against the attacker's Body 2
        ];
        let s = p.roll(&mut Script(dice, 0));
        assert_eq!(
            s,
            FightState {
                att_ap: 0,
                def_ap: 1,
                att_wounds: 2,
                def_wounds: 0,
                att_broken: true,
                def_broken: true,
                attacks: 2,
                ..FightState::default()
            }
        );
    }

    /// A counter attack that wins gives the defender a free attack, fought
    /// (here it wounds the attacker); one that loses gives the attacker one.
    #[test]
    fn counter_attacks_are_fought() {
        let p = plan(Attack::Kick, Defence::Counter, 1, 1);
        let dice = vec![
            5, 1, 1, // kick: CC 3 dice against CC 2: one hit
            4, 4, // counter: CC 2 dice against CC 3: two successes > 1
            1, // the kick's die still rolls to wound (not taken away): no wound
            3, 1, // the defender's free punch: CC 2 against CC 2: one hit
            1, 1, // the attacker's passive defence: none
            2, // the punch wounds against Body 2
        ];
        let s = p.roll(&mut Script(dice, 0));
        assert_eq!(
            (s.def_free, s.att_wounds, s.def_wounds, s.def_ap),
            (1, 1, 0, 0)
        );
        let dice = vec![5, 1, 1, 1, 1, 1, 5, 1, 1, 1, 1, 6];
        let s = p.roll(&mut Script(dice, 0));
        assert_eq!((s.att_free, s.def_wounds), (1, 1));
    }

    /// Fear's freeze: a failed WILL test against 6 stops the attacker 2"
    /// out, the attack's AP spent and no attack made.
    #[test]
    fn fear_freezes_the_attacker() {
        let mut p = plan(Attack::Kick, Defence::Passive, 3, 0);
        p.defender_causes = Dread::Fear;
        let s = p.roll(&mut Script(vec![5, 4, 1], 0));
        assert!(s.frozen && s.attacks == 0 && s.att_ap == 2);
        let q = 1.0 - p_attribute_check(3, 6, Reading::Table);
        let frozen: f64 = p.law().iter().filter(|(s, _)| s.frozen).map(|x| x.1).sum();
        assert!((frozen - q).abs() < 1e-12);
    }

    /// A fight of 1 AP with free extra wounds ("Multiple wounds") and no
    /// free attacks is the one attack: the same expected wounds.
    #[test]
    fn one_ap_fight_is_one_attack() {
        let mut p = plan(Attack::Weapon, Defence::Dodge, 1, 1);
        p.defender_wounds = 6;
        p.fight.attacker.weapon = Some(super::super::close::CcWeapon {
            strength: 1,
            multiple_wounds: true,
            ..Default::default()
        });
        let ex = Exchange {
            fight: p.fight,
            attack: Attack::Weapon,
            defence: Defence::Dodge,
        };
        let (one, _) = ex.payoff();
        assert!(one > 0.1);
        assert!((p.mean_defender_wounds() - one).abs() < 1e-12);
        // with extra wounds to pay for and no AP left, fewer count
        p.fight.attacker.weapon = Some(super::super::close::CcWeapon {
            strength: 1,
            ..Default::default()
        });
        assert!(p.mean_defender_wounds() < one - 1e-3);
    }

    /// The dynamic programme against enumerating every roll of small
    /// fights (one-die pools so that every path is short).
    #[test]
    fn exact_law_matches_enumerating_every_roll() {
        use crate::dice::enumerate;
        let small = super::super::close::Fighter {
            cc: 1,
            strength: 1,
            speed: 1,
            body: 1,
            will: 1,
            ..joe()
        };
        // (attack, defence, attacker's AP, the attacker's fear, the defender's)
        for (a, d, ap, dread, causes) in [
            (Attack::Bunt, Defence::Passive, 2, Dread::None, Dread::None),
            (Attack::Bunt, Defence::Deflect, 1, Dread::None, Dread::None),
            (Attack::Punch, Defence::Counter, 1, Dread::Fear, Dread::None),
            (
                Attack::Punch,
                Defence::BreakOff,
                2,
                Dread::None,
                Dread::Fear,
            ),
        ] {
            let mut p = plan(a, d, ap, 1);
            p.fight.attacker = small;
            p.fight.defender = small;
            p.fight.dread = dread;
            p.defender_causes = causes;
            // (a die certain to pass leaves its complement as rounding:
            // states of 1e-17 the rolls never reach)
            let mut law = p.law();
            law.retain(|x| x.1 > 1e-14);
            let brute = enumerate(1 << 24, |r| p.roll(r)).unwrap();
            assert_eq!(law.len(), brute.len(), "{a:?} {d:?}");
            for ((s, x), (t, y)) in law.iter().zip(&brute) {
                assert_eq!(s, t);
                assert!((x - y).abs() < 1e-12, "{a:?} {d:?} {s:?}: {x} vs {y}");
            }
        }
    }
}
