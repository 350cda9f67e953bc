//! GCE Shooting, steps 1-6: one shooter, one weapon, one target.
//!
//! The rule is written once, as steps on a [`ShotState`] against the
//! [`Roller`] trait; the Monte Carlo sampler runs the steps with batched
//! dice and the exact evaluator runs the same steps under [`StateDist`],
//! merging equal states between steps. A branch-free fast path for plain
//! single shots is checked against the exact evaluator in the tests.

use super::tables::{Injury, hit_needed, hit_with, injury, sustained_fire, wound_needed};
use super::weapon::{Ammo, Template, Weapon};
use crate::dice::{
    AbsorbingChain, BatchedRoller, Expectation, MetricSink, Replay, Roller, StateDist, Tally,
};
use crate::systems::{MetricDef, Model};
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

/// Where the target stands relative to a template or blast marker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Coverage {
    /// The aimed-at target (blast marker: centred on it when the shot hits).
    Aimed,
    /// Wholly under the marker or template: hit automatically.
    Full,
    /// Partly under it: hit on a D6 roll of 4+.
    Partial,
}

/// The target warrior.
#[derive(Clone, Debug, PartialEq)]
pub struct Target {
    /// Toughness, Wounds, save, WS/BS, immunity to Pinning.
    pub stats: WarriorStats,
    /// Initiative for the escape test when a friend not Pinned or Down is
    /// within 2" ("Escaping from Pinning"); `None` when no friend is near.
    pub escape_initiative: Option<u8>,
}

/// The firer, for the hit an exploding weapon deals: "The Warrior takes a
/// Hit from the weapon at its usual Strength -1".
#[derive(Clone, Debug, PartialEq)]
pub struct Firer {
    /// Toughness 1-10.
    pub toughness: u8,
    /// Armour save (score needed), if any.
    pub save: Option<u8>,
}

/// Everything that decides one shooting attack.
#[derive(Clone, Debug, PartialEq)]
pub struct Shooting {
    /// The weapon.
    pub weapon: Weapon,
    /// Shooter's Ballistic Skill.
    pub bs: i32,
    /// Shooter's Strength (for "Varies" save modifiers).
    pub user_strength: u8,
    /// Sustained Fire dice fired (0 = a single shot).
    pub full_auto_dice: u32,
    /// Range to the target in inches (`None` for teardrop templates).
    pub range: Option<f64>,
    /// Sum of the situational hit modifiers (cover, movement, size,
    /// Overwatch under the chosen variant), not counting range.
    pub hit_modifier: i32,
    /// Where the target is relative to a template.
    pub coverage: Coverage,
    /// The target.
    pub target: Target,
    /// The firer, when the explosion's hit on them is to be resolved.
    pub firer: Option<Firer>,
}

pub use super::warrior::Status;
use super::warrior::{Condition, WarriorStats};

/// Everything the attack has done so far: the state the steps act on.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ShotState {
    shots_left: u8,
    jams_left: u8,
    hits: u8,
    wounds: u8,
    unsaved: u8,
    damage: u16,
    target: Condition,
    pinned: bool,
    out_of_ammo: bool,
    exploded: bool,
    firer_wounded: bool,
    on_fire: bool,
    pinned_through_turn: bool,
}

/// Cap on dice paths for one step of the exact evaluator.
const STEP_PATHS: usize = 1 << 16;

impl Shooting {
    fn start(&self) -> ShotState {
        ShotState {
            shots_left: if self.full_auto_dice == 0 { 1 } else { 0 },
            jams_left: 0,
            hits: 0,
            wounds: 0,
            unsaved: 0,
            damage: 0,
            target: self.target.stats.fresh(),
            pinned: false,
            out_of_ammo: false,
            exploded: false,
            firer_wounded: false,
            on_fire: false,
            pinned_through_turn: false,
        }
    }

    /// Most shots one attack can make.
    pub fn max_shots(&self) -> u32 {
        if self.full_auto_dice == 0 {
            1
        } else {
            3 * self.full_auto_dice
        }
    }

    /// Firing on Full Auto: "Roll a sustained fire dice to see how many shots
    /// you can resolve"; "When a jam is rolled then no shots are inflicted by
    /// that dice ... You must make a separate Ammo Roll for each jam symbol".
    fn roll_sustained_fire_die(&self, dice: &mut impl Roller, s: &mut ShotState) {
        match sustained_fire(dice.d6()) {
            Some(n) => s.shots_left += n as u8,
            None => s.jams_left += 1,
        }
    }

    /// Ammo Rolls and Exploding Weapons: "if you score less than the number
    /// indicated then the weapon has run out of ammo"; "If an Ammo Roll is
    /// required and the result is 1, roll a further D6. If the result is
    /// lower than the Weapon Ammo Roll number again it explodes! However,
    /// Weapons with Auto Ammo Roll will explode on the first result of a 1."
    fn ammo_roll(&self, dice: &mut impl Roller, s: &mut ShotState) {
        let d = dice.d6();
        let explodes = match self.weapon.ammo {
            Ammo::Auto => {
                s.out_of_ammo = true;
                d == 1
            }
            Ammo::Score(a) => {
                if d < a {
                    s.out_of_ammo = true;
                }
                d < a && d == 1 && dice.d6() < a
            }
        };
        if explodes && !s.exploded {
            s.exploded = true;
            self.explosion_hits_firer(dice, s);
        }
    }

    /// "The Warrior takes a Hit from the weapon at its usual Strength -1":
    /// the Wound Chart at Strength - 1 against the firer's Toughness, then
    /// the firer's save with the weapon's save modifier. The weapon is
    /// "useless for the rest of the game", so it explodes at most once.
    fn explosion_hits_firer(&self, dice: &mut impl Roller, s: &mut ShotState) {
        let Some(firer) = &self.firer else {
            return;
        };
        let Some(needed) = wound_needed(self.weapon.strength - 1, firer.toughness) else {
            return;
        };
        if dice.d6() < u32::from(needed) {
            return;
        }
        if let Some(save) = firer.save {
            let need = i32::from(save) - self.weapon.save_modifier_with(self.user_strength);
            if need <= 6 && dice.d6() as i32 >= need {
                return;
            }
        }
        s.firer_wounded = true;
    }

    /// Escaping from Pinning: a Pinned warrior still on its feet stays
    /// Pinned through its turn unless a friend is within 2" and it passes an
    /// Initiative Test ("roll a D6 - a score that is equal or under their
    /// Initiative characteristic passes"; "A roll of 6 is always a failure").
    fn pinning_check(&self, dice: &mut impl Roller, s: &mut ShotState) {
        if !s.pinned || s.target.is_down_or_out() {
            return;
        }
        s.pinned_through_turn = match self.target.escape_initiative {
            None => true,
            Some(initiative) => {
                let d = dice.d6();
                d == 6 || d > u32::from(initiative)
            }
        };
    }

    /// Steps 2-6 for one shot.
    fn resolve_shot(&self, dice: &mut impl Roller, s: &mut ShotState) {
        s.shots_left -= 1;
        let range_mod = self.range.map(|r| self.weapon.range_modifier(r));
        let aimed_hit = |dice: &mut _, s: &mut ShotState| -> bool {
            let first = Roller::d6(dice);
            // "If you roll a 6 when testing to Hit ... an Ammo Roll is
            // required. The Target is still Hit"; out of range: "you still
            // have to Test" - the die is rolled, the shot misses.
            let trigger = first == 6 || self.weapon.ammo_after_every_shot;
            let hit = match range_mod {
                Some(Some(m)) => hit_with(first, hit_needed(self.bs, self.hit_modifier + m), dice),
                _ => false,
            };
            if trigger {
                self.ammo_roll(dice, s);
            }
            hit
        };
        let hit = match (self.weapon.template, self.coverage) {
            (Template::Teardrop, c) => {
                if self.weapon.ammo_after_every_shot {
                    self.ammo_roll(dice, s);
                }
                c != Coverage::Partial || dice.d6() >= 4
            }
            (Template::Blast, Coverage::Partial) => aimed_hit(dice, s) && dice.d6() >= 4,
            _ => aimed_hit(dice, s),
        };
        if !hit {
            return;
        }
        s.hits += 1;
        // Pinning: "Unless otherwise stated a shot that Hits will Pin".
        s.pinned |= !self.target.stats.pin_immune;
        if let Some(fire) = self.weapon.catch_fire {
            s.on_fire |= dice.d6() >= fire;
        }
        if s.target.status == Status::OutOfAction {
            return;
        }
        // Step 3: Wound Chart.
        let Some(needed) = wound_needed(self.weapon.strength, self.target.stats.toughness) else {
            return;
        };
        if dice.d6() < u32::from(needed) {
            return;
        }
        s.wounds += 1;
        // Step 4: "It is impossible to make a save if the score required is
        // greater than 6"; a Warrior with no Armour has no save to improve.
        if let Some(save) = self.target.stats.save {
            let need = i32::from(save) - self.weapon.save_modifier_with(self.user_strength);
            if need <= 6 && dice.d6() as i32 >= need {
                return;
            }
        }
        s.unsaved += 1;
        let dealt = self.weapon.damage.roll(dice);
        s.damage += dealt as u16;
        s.target.take_damage(dice, dealt);
    }

    /// One whole attack, as the sampler runs it.
    fn sample(&self, dice: &mut impl Roller) -> ShotState {
        let mut s = self.start();
        for _ in 0..self.full_auto_dice {
            self.roll_sustained_fire_die(dice, &mut s);
        }
        while s.jams_left > 0 {
            s.jams_left -= 1;
            self.ammo_roll(dice, &mut s);
        }
        while s.shots_left > 0 {
            self.resolve_shot(dice, &mut s);
        }
        self.pinning_check(dice, &mut s);
        s
    }

    /// The same attack, evaluated exactly step by step.
    pub fn exact_states(&self) -> Option<StateDist<ShotState>> {
        let mut d = StateDist::certain(self.start());
        for _ in 0..self.full_auto_dice {
            d = d
                .step(STEP_PATHS, |r: &mut Replay, s| {
                    self.roll_sustained_fire_die(r, s)
                })
                .ok()?;
        }
        for _ in 0..self.full_auto_dice {
            d = d
                .step(STEP_PATHS, |r: &mut Replay, s| {
                    if s.jams_left > 0 {
                        s.jams_left -= 1;
                        self.ammo_roll(r, s);
                    }
                })
                .ok()?;
        }
        for _ in 0..self.max_shots() {
            d = d
                .step(STEP_PATHS, |r: &mut Replay, s| {
                    if s.shots_left > 0 {
                        self.resolve_shot(r, s);
                    }
                })
                .ok()?;
        }
        d = d
            .step(STEP_PATHS, |r: &mut Replay, s| self.pinning_check(r, s))
            .ok()?;
        Some(d)
    }
}

/// Recovery Phase for a Down warrior left alone: "Any Warrior who is Down
/// must roll on the Injury Table ... A result of Flesh Wound lets the Warrior
/// get back in the fight with a -1 WS and -1 BS penalty ... Down leaves the
/// Warrior face down and unchanged." Returns whether it ends Out of Action.
fn recover_until_settled(dice: &mut impl Roller, ws: u8, bs: u8) -> bool {
    loop {
        match injury(dice.d6()) {
            Injury::FleshWound => return ws <= 1 && bs <= 1,
            Injury::OutOfAction => return true,
            Injury::Down => {}
        }
    }
}

/// The same recovery as an absorbing Markov chain: transient state Down,
/// absorbing states Recovered and Out of Action. Returns P(Out of Action).
fn recovery_chain(ws: u8, bs: u8) -> f64 {
    let flesh_kills = ws <= 1 && bs <= 1;
    let (p_up, p_ooa) = if flesh_kills {
        (0.0, 0.5)
    } else {
        (2.0 / 6.0, 1.0 / 6.0)
    };
    let chain = AbsorbingChain::new(vec![vec![0.5]], vec![vec![p_up, p_ooa]])
        .expect("the recovery chain's rows sum to one");
    chain.absorption().map(|b| b[0][1]).unwrap_or(1.0)
}

/// Metric layout of a shooting model.
struct Layout {
    hits_from: usize,
    wounds_from: usize,
    firer_wounded: Option<usize>,
}

const P_HIT: usize = 0;
const MEAN_HITS: usize = 1;
const MEAN_WOUNDS: usize = 2;
const MEAN_UNSAVED: usize = 3;
const MEAN_DAMAGE: usize = 4;
const P_WOUNDED: usize = 5;
const P_FLESH: usize = 6;
const P_DOWN: usize = 7;
const P_OOA: usize = 8;
const P_EVENTUALLY_OOA: usize = 9;
const P_PINNED: usize = 10;
const P_NO_AMMO: usize = 11;
const P_EXPLODES: usize = 12;
const P_FIRE: usize = 13;
const P_PINNED_THROUGH: usize = 14;
/// Outcome classes of the fast path: 16 front x 16 back dense ids.
const FAST_CLASSES: usize = 256;
const FAST_HIT: u8 = 1;
const FAST_WOUND: u8 = 2;
const FAST_UNSAVED: u8 = 4;
const FAST_FLESH: u8 = 8;
const FAST_DOWN: u8 = 16;
const FAST_OUT: u8 = 32;
const FAST_NATURAL_SIX: u8 = 64;
const FAST_AMMO_FAILS: u8 = 1;
const FAST_EXPLODES: u8 = 2;
const FAST_STAY_DOWN: u8 = 4;
const FAST_RECOVERY_OUT: u8 = 8;

/// The fixed metrics with their descriptions.
pub fn metric_catalog() -> Vec<MetricDef> {
    vec![
        MetricDef::probability("p_hit", "P(at least one hit)"),
        MetricDef::mean("mean_hits", "expected hits"),
        MetricDef::mean("mean_wounds", "expected successful wound rolls"),
        MetricDef::mean("mean_unsaved", "expected unsaved wounds"),
        MetricDef::mean("mean_damage", "expected Damage dealt"),
        MetricDef::probability("p_wounded", "P(at least one unsaved wound)"),
        MetricDef::probability("p_flesh_wound", "P(ends on its feet with a Flesh Wound)"),
        MetricDef::probability("p_down", "P(ends Down)"),
        MetricDef::probability("p_out_of_action", "P(ends Out of Action)"),
        MetricDef::probability(
            "p_eventually_out_of_action",
            "P(Out of Action now, or later from Down through Recovery rolls)",
        ),
        MetricDef::probability("p_pinned", "P(target Pinned)"),
        MetricDef::probability("p_out_of_ammo", "P(a failed Ammo Roll)"),
        MetricDef::probability("p_weapon_explodes", "P(the weapon explodes)"),
        MetricDef::probability("p_catches_fire", "P(target Catches Fire)"),
        MetricDef::probability(
            "p_pinned_through_turn",
            "P(on its feet and still Pinned after any escape test)",
        ),
    ]
}

/// A shooting scenario ready to run.
pub struct ShootingModel {
    shooting: Shooting,
    metrics: Vec<MetricDef>,
    layout: Layout,
    /// Class tables of the fast path, built once per model where it applies.
    fast: Option<Arc<FastTables>>,
}

/// Everything the fast path's tables depend on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct FastKey {
    needed: Option<i32>,
    wound_need: u32,
    save_need: u32,
    injures: bool,
    flesh_kills: bool,
    /// Ammo Roll score, 0 for "Auto".
    ammo: u32,
}

impl FastKey {
    fn of(sh: &Shooting) -> Self {
        let stats = &sh.target.stats;
        let damage = sh.weapon.damage.as_fixed().unwrap_or(0);
        FastKey {
            needed: sh
                .range
                .and_then(|r| sh.weapon.range_modifier(r))
                .map(|m| hit_needed(sh.bs, sh.hit_modifier + m)),
            wound_need: wound_needed(sh.weapon.strength, stats.toughness).map_or(7, u32::from),
            save_need: stats.save.map_or(7, |sv| {
                let n = i32::from(sv) - sh.weapon.save_modifier_with(sh.user_strength);
                if n > 6 { 7 } else { n.max(0) as u32 }
            }),
            injures: damage > 0 && damage >= u32::from(stats.wounds),
            flesh_kills: stats.ws <= 1 && stats.bs <= 1,
            ammo: match sh.weapon.ammo {
                Ammo::Score(a) => a,
                Ammo::Auto => 0,
            },
        }
    }
}

/// Lookup tables of [`ShootingModel::run_fast`].
struct FastTables {
    /// Dense class id of each value of the top five dice (padded to 8192).
    front: Vec<u8>,
    /// Outcome bits of each front class id.
    front_classes: Vec<u8>,
    /// Dense class id of each value of the bottom three dice.
    back: Vec<u8>,
    /// Outcome bits of each back class id.
    back_classes: Vec<u8>,
    /// Whether a combined class leaves a warrior Down after its first
    /// Recovery roll.
    keeps_rolling: Vec<bool>,
}

impl ShootingModel {
    /// Wraps a validated shooting situation.
    pub fn new(shooting: Shooting) -> Self {
        let mut metrics = metric_catalog();
        let n = shooting.max_shots();
        let hits_from = metrics.len();
        metrics.extend(
            (0..=n).map(|k| MetricDef::probability(format!("hits={k}"), "P(exactly k hits)")),
        );
        let wounds_from = metrics.len();
        metrics.extend((0..=n).map(|k| {
            MetricDef::probability(format!("wounds={k}"), "P(exactly k wound rolls succeed)")
        }));
        let firer_wounded = shooting.firer.is_some().then(|| {
            metrics.push(MetricDef::probability(
                "p_firer_wounded",
                "P(the weapon explodes and its hit wounds the firer, unsaved)",
            ));
            metrics.len() - 1
        });
        let mut model = ShootingModel {
            shooting,
            metrics,
            layout: Layout {
                hits_from,
                wounds_from,
                firer_wounded,
            },
            fast: None,
        };
        if model.fast_path_applies() {
            model.fast = Some(FastTables::shared(&model.shooting));
        }
        model
    }

    /// The situation.
    pub fn shooting(&self) -> &Shooting {
        &self.shooting
    }

    /// Records every metric except the eventual-Out-of-Action one.
    fn record(&self, s: &ShotState, sink: &mut impl MetricSink) {
        sink.record(P_HIT, u64::from(s.hits > 0));
        sink.record(MEAN_HITS, u64::from(s.hits));
        sink.record(MEAN_WOUNDS, u64::from(s.wounds));
        sink.record(MEAN_UNSAVED, u64::from(s.unsaved));
        sink.record(MEAN_DAMAGE, u64::from(s.damage));
        sink.record(P_WOUNDED, u64::from(s.unsaved > 0));
        sink.record(P_FLESH, u64::from(s.target.status == Status::FleshWound));
        sink.record(P_DOWN, u64::from(s.target.status == Status::Down));
        sink.record(P_OOA, u64::from(s.target.status == Status::OutOfAction));
        sink.record(P_PINNED, u64::from(s.pinned));
        sink.record(P_NO_AMMO, u64::from(s.out_of_ammo));
        sink.record(P_EXPLODES, u64::from(s.exploded));
        sink.record(P_FIRE, u64::from(s.on_fire));
        sink.record(P_PINNED_THROUGH, u64::from(s.pinned_through_turn));
        if let Some(i) = self.layout.firer_wounded {
            sink.record(i, u64::from(s.firer_wounded));
        }
        sink.record(self.layout.hits_from + usize::from(s.hits), 1);
        sink.record(self.layout.wounds_from + usize::from(s.wounds), 1);
    }

    /// Whether the branch-free single-shot path applies.
    pub fn fast_path_applies(&self) -> bool {
        let sh = &self.shooting;
        sh.full_auto_dice == 0
            && sh.weapon.template == Template::None
            && sh.weapon.catch_fire.is_none()
            && sh.weapon.damage.as_fixed().is_some()
            && sh.range.is_some()
            && sh.firer.is_none()
            && sh.target.escape_initiative.is_none()
    }

    /// Plain single shots by table: one 64-bit word is read as eight D6 in
    /// mixed radix, `floor(word * 6^8 / 2^64)` (the same digits
    /// [`split_word`](crate::dice::split_word) gives, bias at most
    /// `6^8 / 2^64`). Its top five digits (to hit, 7+ follow-up, wound,
    /// save, injury) index a table of outcome classes built with the rule's
    /// own functions; the bottom three (Ammo Roll, explosion, first Recovery
    /// roll) index a second. A trial is then one multiply, two lookups and
    /// a histogram increment; dice a trial does not need are rolled anyway,
    /// which does not change the outcome's distribution. Down warriors still
    /// Down after their first Recovery roll finish rolling after the loop.
    pub fn run_fast(&self, roller: &mut BatchedRoller, trials: u64, tally: &mut Tally) {
        let built;
        let tables = match &self.fast {
            Some(t) => t.as_ref(),
            None => {
                built = FastTables::new(&self.shooting);
                &built
            }
        };
        let FastTables {
            front,
            front_classes,
            back,
            back_classes,
            keeps_rolling,
        } = tables;
        let (ws, bs) = (self.shooting.target.stats.ws, self.shooting.target.stats.bs);
        // four interleaved histograms so repeated classes do not queue on
        // one memory slot
        let mut hist = vec![0u64; 4 * FAST_CLASSES];
        let mut later_out_of_action = 0u64;
        const SIX_POW_8: u128 = 1_679_616;
        for i in 0..trials {
            let index = ((u128::from(roller.next_word()) * SIX_POW_8) >> 64) as usize;
            let a = front[(index / 216) & 8191];
            let b = back[index % 216];
            let class = (usize::from(a) * 16 + usize::from(b)) & (FAST_CLASSES - 1);
            hist[(i as usize & 3) * FAST_CLASSES + class] += 1;
        }
        // A Down warrior still Down after its first Recovery roll goes on
        // rolling; the rolls are independent of everything before, so they
        // run after the loop, keeping the loop free of data-dependent branches.
        let still_down: u64 = (0..FAST_CLASSES)
            .filter(|&c| keeps_rolling[c])
            .map(|c| {
                (0..4)
                    .map(|copy| hist[copy * FAST_CLASSES + c])
                    .sum::<u64>()
            })
            .sum();
        for _ in 0..still_down {
            later_out_of_action += u64::from(recover_until_settled(roller, ws, bs));
        }
        let every_shot = self.shooting.weapon.ammo_after_every_shot;
        let damage = u64::from(self.shooting.weapon.damage.as_fixed().unwrap_or(0));
        let pins = !self.shooting.target.stats.pin_immune;
        let mut eventually = later_out_of_action;
        for class in 0..FAST_CLASSES {
            let n: u64 = (0..4).map(|copy| hist[copy * FAST_CLASSES + class]).sum();
            if n == 0 {
                continue;
            }
            let (a, b) = (front_classes[class / 16], back_classes[class % 16]);
            let hit = a & FAST_HIT != 0;
            let tested = a & FAST_NATURAL_SIX != 0 || every_shot;
            let flag = |on: bool, metric: usize, tally: &mut Tally| {
                tally.record_many(metric, u64::from(on), n)
            };
            flag(hit, P_HIT, tally);
            flag(hit, MEAN_HITS, tally);
            flag(hit && pins, P_PINNED, tally);
            flag(a & FAST_WOUND != 0, MEAN_WOUNDS, tally);
            flag(a & FAST_UNSAVED != 0, MEAN_UNSAVED, tally);
            flag(a & FAST_UNSAVED != 0, P_WOUNDED, tally);
            tally.record_many(
                MEAN_DAMAGE,
                if a & FAST_UNSAVED != 0 { damage } else { 0 },
                n,
            );
            flag(a & FAST_FLESH != 0, P_FLESH, tally);
            flag(a & FAST_DOWN != 0, P_DOWN, tally);
            flag(a & FAST_OUT != 0, P_OOA, tally);
            flag(tested && b & FAST_AMMO_FAILS != 0, P_NO_AMMO, tally);
            flag(tested && b & FAST_EXPLODES != 0, P_EXPLODES, tally);
            flag(false, P_FIRE, tally);
            let standing = a & (FAST_DOWN | FAST_OUT) == 0;
            flag(hit && pins && standing, P_PINNED_THROUGH, tally);
            flag(hit, self.layout.hits_from + 1, tally);
            flag(!hit, self.layout.hits_from, tally);
            flag(a & FAST_WOUND != 0, self.layout.wounds_from + 1, tally);
            flag(a & FAST_WOUND == 0, self.layout.wounds_from, tally);
            let out_now = a & FAST_OUT != 0;
            let out_first_recovery = a & FAST_DOWN != 0 && b & FAST_RECOVERY_OUT != 0;
            if out_now || out_first_recovery {
                eventually += n;
            }
        }
        tally.record_many(P_EVENTUALLY_OOA, 1, eventually);
        tally.add_trials(trials);
    }

    /// The general sampler: the rule's steps on batched dice.
    pub fn run_general(&self, roller: &mut BatchedRoller, trials: u64, tally: &mut Tally) {
        for _ in 0..trials {
            self.trial(roller, tally);
            tally.finish_trial();
        }
    }

    /// One trial of the general sampler, every metric recorded in `sink`.
    fn trial(&self, roller: &mut BatchedRoller, sink: &mut impl MetricSink) {
        let s = self.shooting.sample(roller);
        self.record(&s, sink);
        let eventually = s.target.status == Status::OutOfAction
            || (s.target.status == Status::Down
                && recover_until_settled(roller, s.target.ws, s.target.bs));
        sink.record(P_EVENTUALLY_OOA, u64::from(eventually));
    }
}

impl FastTables {
    /// The tables for `sh`, built once per distinct set of numbers they
    /// depend on and shared by every model with the same numbers, so a
    /// sweep of many cells holds a few tables, not one per cell.
    fn shared(sh: &Shooting) -> Arc<FastTables> {
        static CACHE: Mutex<BTreeMap<FastKey, Arc<FastTables>>> = Mutex::new(BTreeMap::new());
        let key = FastKey::of(sh);
        let mut cache = CACHE
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        cache
            .entry(key)
            .or_insert_with(|| Arc::new(FastTables::new(sh)))
            .clone()
    }

    fn new(sh: &Shooting) -> Self {
        let (front_bits, back_bits) = Self::outcome_bits(sh);
        // Dense class ids keep the histogram small enough for L1: at most
        // 14 front and 9 back classes occur.
        let (front, front_classes) = dense_ids(&front_bits);
        let (back, back_classes) = dense_ids(&back_bits);
        let keeps_rolling = (0..FAST_CLASSES)
            .map(|class| {
                let (a, b) = (class / 16, class % 16);
                a < front_classes.len()
                    && b < back_classes.len()
                    && front_classes[a] & FAST_DOWN != 0
                    && back_classes[b] & FAST_STAY_DOWN != 0
            })
            .collect();
        FastTables {
            front,
            front_classes,
            back,
            back_classes,
            keeps_rolling,
        }
    }

    /// The outcome bits of the top five and the bottom three dice, filled
    /// by the rule's own functions (`hit_with`, `wound_needed`, `injury`,
    /// `ammo_roll` ...).
    fn outcome_bits(sh: &Shooting) -> (Vec<u8>, Vec<u8>) {
        let FastKey {
            needed,
            wound_need,
            save_need,
            injures,
            flesh_kills,
            ammo: _,
        } = FastKey::of(sh);
        let digits = |mut v: usize, n: usize| -> Vec<u32> {
            let mut d = vec![0; n];
            for slot in d.iter_mut().rev() {
                *slot = (v % 6) as u32 + 1;
                v /= 6;
            }
            d
        };
        // 7776 classes, padded to 8192 so the masked index needs no bounds check
        let front = (0..8192)
            .map(|i| {
                if i >= 7776 {
                    return 0;
                }
                let d = digits(i, 5);
                let mut a = 0u8;
                if d[0] == 6 {
                    a |= FAST_NATURAL_SIX;
                }
                let hit = needed.is_some_and(|n| hit_with(d[0], n, &mut FixedDie(d[1])));
                if !hit {
                    return a;
                }
                a |= FAST_HIT;
                if d[2] < wound_need {
                    return a;
                }
                a |= FAST_WOUND;
                if d[3] >= save_need {
                    return a;
                }
                a |= FAST_UNSAVED;
                if injures {
                    a |= match injury(d[4]) {
                        Injury::FleshWound if flesh_kills => FAST_OUT,
                        Injury::FleshWound => FAST_FLESH,
                        Injury::Down => FAST_DOWN,
                        Injury::OutOfAction => FAST_OUT,
                    };
                }
                a
            })
            .collect();
        let back = (0..216)
            .map(|i| {
                let d = digits(i, 3);
                let mut probe = sh.start();
                let mut ammo_dice = [d[0], d[1]].into_iter();
                sh.ammo_roll(&mut SequenceDice(&mut ammo_dice), &mut probe);
                let mut b = 0u8;
                if probe.out_of_ammo {
                    b |= FAST_AMMO_FAILS;
                }
                if probe.exploded {
                    b |= FAST_EXPLODES;
                }
                b |= match injury(d[2]) {
                    Injury::FleshWound if flesh_kills => FAST_RECOVERY_OUT,
                    Injury::FleshWound => 0,
                    Injury::Down => FAST_STAY_DOWN,
                    Injury::OutOfAction => FAST_RECOVERY_OUT,
                };
                b
            })
            .collect();
        (front, back)
    }
}

/// Replaces each value by its rank among the distinct values; returns the
/// ranks and the distinct values.
fn dense_ids(values: &[u8]) -> (Vec<u8>, Vec<u8>) {
    let mut distinct = values.to_vec();
    distinct.sort_unstable();
    distinct.dedup();
    assert!(distinct.len() <= 16, "fast-path classes fit in 4 bits");
    let ids = values
        .iter()
        .map(|v| distinct.partition_point(|d| d < v) as u8)
        .collect();
    (ids, distinct)
}

/// A die that always shows one face: lets the fast path tabulate the 7+
/// chain with the same `hit_with` the rule uses.
struct FixedDie(u32);

/// Dice that show the given faces in order (then 1s): lets the fast path
/// tabulate the Ammo Roll with the rule's own `ammo_roll`.
struct SequenceDice<'a, I: Iterator<Item = u32>>(&'a mut I);

impl<I: Iterator<Item = u32>> Roller for SequenceDice<'_, I> {
    fn roll(&mut self, _sides: u32) -> u32 {
        self.0.next().unwrap_or(1)
    }
}

impl Roller for FixedDie {
    fn roll(&mut self, _sides: u32) -> u32 {
        self.0
    }
}

impl Model for ShootingModel {
    fn metrics(&self) -> &[MetricDef] {
        &self.metrics
    }

    fn run_chunk(&self, roller: &mut BatchedRoller, trials: u64, tally: &mut Tally) {
        if self.fast_path_applies() {
            self.run_fast(roller, trials, tally);
        } else {
            self.run_general(roller, trials, tally);
        }
    }

    fn sample_one(&self, roller: &mut BatchedRoller, values: &mut [u64]) {
        self.trial(roller, &mut crate::systems::TrialValues(values));
    }

    fn exact(&self) -> Option<Vec<f64>> {
        let states = self.shooting.exact_states()?;
        let mut e = Expectation::new(self.metrics.len());
        for (s, p) in states.iter() {
            e.set_weight(p);
            self.record(s, &mut e);
            let eventually = match s.target.status {
                Status::OutOfAction => 1.0,
                Status::Down => recovery_chain(s.target.ws, s.target.bs),
                _ => 0.0,
            };
            e.set_weight(p * eventually);
            e.record(P_EVENTUALLY_OOA, 1);
        }
        Some(e.into_values())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::enumerate;
    use crate::systems::{ParamValue, Params};

    fn model(extra: &[(&str, ParamValue)]) -> ShootingModel {
        let mut p = Params::new();
        let base = [
            ("weapon", ParamValue::Str("shoota".into())),
            ("bs", ParamValue::Int(3)),
            ("range", ParamValue::Int(8)),
            ("toughness", ParamValue::Int(3)),
            ("wounds", ParamValue::Int(1)),
            ("save", ParamValue::Int(5)),
            ("target_ws", ParamValue::Int(3)),
            ("target_bs", ParamValue::Int(3)),
        ];
        for (k, v) in base.into_iter().chain(extra.iter().cloned()) {
            p.set(k, v);
        }
        crate::systems::gce::build_shooting(&p, &Params::new()).unwrap()
    }

    fn exact(m: &ShootingModel, name: &str) -> f64 {
        let i = m.metrics().iter().position(|d| d.name == name).unwrap();
        m.exact().unwrap()[i]
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    #[test]
    fn shoota_shot_by_hand() {
        // BS 3, short range +1: 3+ to hit (2/3); S3 v T3: 4+ (1/2); 5+ save
        // fails 4/6; injury 6 (1/6) Out of Action, 3-5 (1/2) Down.
        let m = model(&[]);
        assert!(close(exact(&m, "p_hit"), 2.0 / 3.0));
        assert!(close(exact(&m, "p_wounded"), 2.0 / 9.0));
        assert!(close(exact(&m, "p_out_of_action"), 1.0 / 27.0));
        assert!(close(exact(&m, "p_down"), 1.0 / 9.0));
        // Down then left alone: Out of Action with probability 1/3.
        assert!(close(exact(&m, "p_eventually_out_of_action"), 2.0 / 27.0));
        // Ammo Roll on a natural 6 (1/6): below 4+ fails (1/2); a 1 then
        // a further roll below 4 explodes (1/6 * 1/2).
        assert!(close(exact(&m, "p_out_of_ammo"), 1.0 / 12.0));
        assert!(close(exact(&m, "p_weapon_explodes"), 1.0 / 72.0));
        assert!(close(exact(&m, "p_pinned"), 2.0 / 3.0));
    }

    #[test]
    fn auto_ammo_explosion_wounds_the_firer_by_hand() {
        // Auto: fails whenever tested, explodes on the first 1 (1/6 * 1/6).
        // S3 - 1 = S2 v firer T3 wounds on 5+ (1/3); 6+ save fails 5/6.
        let m = model(&[
            ("ammo", ParamValue::Str("auto".into())),
            ("firer_toughness", ParamValue::Int(3)),
            ("firer_save", ParamValue::Int(6)),
        ]);
        assert!(close(exact(&m, "p_out_of_ammo"), 1.0 / 6.0));
        assert!(close(exact(&m, "p_weapon_explodes"), 1.0 / 36.0));
        assert!(close(
            exact(&m, "p_firer_wounded"),
            1.0 / 36.0 / 3.0 * 5.0 / 6.0
        ));
    }

    #[test]
    fn two_sustained_fire_dice_by_hand() {
        // Each die: 1,1,2,2,3,JAM -> 1.5 shots on average; at 8" in the long
        // band (no modifier) BS 3 hits on 4+ (1/2).
        let m = model(&[
            ("weapon", ParamValue::Str("eavy_shoota".into())),
            ("long_range", ParamValue::Int(18)),
            ("long_hit", ParamValue::Int(0)),
            ("strength", ParamValue::Int(4)),
            ("damage", ParamValue::Str("1".into())),
            ("ammo", ParamValue::Str("4".into())),
            ("fire_mode", ParamValue::Str("full_auto".into())),
        ]);
        assert!(close(exact(&m, "mean_hits"), 1.5));
        // six hits needs both dice on 3 and every shot to hit
        assert!(close(exact(&m, "hits=6"), (1.0 / 36.0) * 0.5f64.powi(6)));
    }

    #[test]
    fn escape_from_pinning_by_hand() {
        // Pinned on a hit (2/3) while still on its feet; with a friend near,
        // an Initiative 3 test passes on 1-3 (1/2).
        let m = model(&[
            ("friend_within_2in", ParamValue::Bool(true)),
            ("target_initiative", ParamValue::Int(3)),
        ]);
        let standing_after_hit = 2.0 / 3.0 - 1.0 / 27.0 - 1.0 / 9.0;
        assert!(close(
            exact(&m, "p_pinned_through_turn"),
            standing_after_hit / 2.0
        ));
    }

    #[test]
    fn recovery_chain_matches_enumerated_first_rolls() {
        // From Down: 1/3 Flesh Wound (up), 1/6 Out of Action, 1/2 stays Down,
        // so P(eventually Out of Action) = (1/6) / (1/2) = 1/3.
        assert!((recovery_chain(3, 3) - 1.0 / 3.0).abs() < 1e-15);
        // With WS and BS at 1, a Flesh Wound takes both to 0: always out.
        assert!((recovery_chain(1, 1) - 1.0).abs() < 1e-15);
        let one_roll = enumerate(10, |r| injury(r.d6())).unwrap();
        let stay: f64 = one_roll
            .iter()
            .filter(|(i, _)| *i == Injury::Down)
            .map(|(_, p)| p)
            .sum();
        assert!((stay - 0.5).abs() < 1e-15);
    }
}
