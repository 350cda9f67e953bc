//! The Crisis chapter's rules as plain functions and tables: the difficulty
//! ladder, the Skill roll and its Extras, modifiers, cover, action points
//! and damage against armour. The scenarios only combine these.

use crate::dice::{Expr, Roller};
use crate::systems::{Declared, FromParam, ParamDecl, ParamError, Params};
use std::sync::Arc;

/// The difficulty ladder, "Difficulty Level Name Description":
///
/// > 0 Trivial Everyday tasks. / 1 Routine ... / 2 Simple ... / 3 Easy ... /
/// > 4 Normal ... / 5 Demanding ... / 8 Challenging ... / 12 Hard ... /
/// > 16 Very Hard ... / 20 Impossible A once in a lifetime achievement.
///
/// A test reads every row back out of the seed.
pub const DIFFICULTY_LADDER: [(i64, &str); 10] = [
    (0, "Trivial"),
    (1, "Routine"),
    (2, "Simple"),
    (3, "Easy"),
    (4, "Normal"),
    (5, "Demanding"),
    (8, "Challenging"),
    (12, "Hard"),
    (16, "Very Hard"),
    (20, "Impossible"),
];

/// The Difficulty Level a spec names: a number from 0 to
/// [`MAX_DIFFICULTY`], or a name of the ladder in any case ("hard",
/// "Very Hard"; spaces, hyphens and underscores alike). A typo gets the
/// closest name suggested.
pub fn difficulty_level(text: &str) -> Result<i64, String> {
    let text = text.trim();
    if let Ok(level) = text.parse::<i64>() {
        return if (0..=MAX_DIFFICULTY).contains(&level) {
            Ok(level)
        } else {
            Err(format!(
                "{level} is impossible: a Difficulty Level is from 0 to {MAX_DIFFICULTY}"
            ))
        };
    }
    let word = |s: &str| {
        s.to_ascii_lowercase()
            .split(|c: char| c.is_whitespace() || c == '-' || c == '_')
            .filter(|w| !w.is_empty())
            .collect::<Vec<_>>()
            .join(" ")
    };
    let wanted = word(text);
    let names: Vec<String> = DIFFICULTY_LADDER.iter().map(|(_, n)| word(n)).collect();
    match names.iter().position(|n| *n == wanted) {
        Some(i) => Ok(DIFFICULTY_LADDER[i].0),
        None => Err(format!(
            "'{text}' is neither a number nor a Difficulty Level name ({}){}",
            DIFFICULTY_LADDER
                .iter()
                .map(|(l, n)| format!("{l} {n}"))
                .collect::<Vec<_>>()
                .join(", "),
            crate::systems::did_you_mean(&wanted, names.iter().map(String::as_str))
        )),
    }
}

/// The highest Difficulty Level a spec may set (past Impossible, for
/// heavy modifiers).
pub const MAX_DIFFICULTY: i64 = 40;

/// A Difficulty Level, given by number or by name.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Difficulty(pub i64);

impl FromParam for Difficulty {
    fn from_param(p: &Params, name: &str) -> Result<Self, ParamError> {
        let text = p.need_word(name)?;
        difficulty_level(&text)
            .map(Difficulty)
            .map_err(|m| ParamError::new(name, m))
    }
}

impl Declared for Difficulty {
    fn declare(name: String) -> ParamDecl {
        ParamDecl::text(name, "hard")
            .about("the Difficulty Level, a number or a name: 0 Trivial, 1 Routine, 2 Simple, 3 Easy, 4 Normal, 5 Demanding, 8 Challenging, 12 Hard, 16 Very Hard, 20 Impossible")
            .seed("Difficulty")
    }
}

/// A Difficulty Level read but not yet checked: a rule that checks other
/// values before it asks for this one with `?` where it used to read it,
/// so that their errors keep coming first.
pub type DeferredDifficulty = Result<Difficulty, ParamError>;

impl FromParam for DeferredDifficulty {
    fn from_param(p: &Params, name: &str) -> Result<Self, ParamError> {
        Ok(Difficulty::from_param(p, name))
    }
}

impl Declared for DeferredDifficulty {
    fn declare(name: String) -> ParamDecl {
        Difficulty::declare(name)
    }
}

const ROLL: &str =
    "Difficulty (the dice are not given: a parameter); Attacking and Damaging (the Extras example)";

crate::param_struct! {
    /// The roll and the Extras rule, parameters of every scenario.
    pub struct RollParams {
        roll: String = text(DEFAULT_ROLL)
            .default(DEFAULT_ROLL)
            .about("the dice of a Skill roll, a dice expression (the seed never gives them); the skill and modifiers are added")
            .seed(ROLL),
        extras_step: i64 = int(1, 20)
            .default("4")
            .about("points above the difficulty per Extra (4: the seed's 13 against DL 4 nets 2)")
            .seed(ROLL),
    }
}

impl RollParams {
    /// The Skill roll these parameters describe.
    pub fn skill_roll(&self) -> Result<SkillRoll, ParamError> {
        SkillRoll::new(&self.roll, "roll", self.extras_step)
    }
}

/// "Every task usually has a difficulty of 4"; "The Difficulty Level to hit
/// is a 4" (Ranged Attacks).
pub const NORMAL_DIFFICULTY: i64 = 4;

/// The default Skill roll: the seed never names the dice (see DESIGN,
/// Readings).
pub const DEFAULT_ROLL: &str = "2d6";

/// The default Extras rule: one Extra per full 4 points above the
/// difficulty, the only whole step for which the seed's "His roll results in
/// a 13. This nets him 2 Extras" holds against the ranged DL of 4
/// (floor(9 / s) = 2 only for s = 4); it is also the ladder's spacing from
/// Normal upwards (4, 8, 12, 16, 20).
pub const DEFAULT_EXTRAS_STEP: i64 = 4;

/// Most distinct totals a Skill roll may have: the exact evaluators branch
/// on each.
pub const MAX_ROLL_OUTCOMES: usize = 4096;

/// A Skill roll: the dice of a spec's expression, plus the skill and
/// modifiers the caller adds, against a difficulty, counting Extras.
#[derive(Clone, Debug)]
pub struct SkillRoll {
    dice: Expr,
    /// `Some((count, sides))` when the dice are a plain `NdS` sum: the
    /// sampler then sums the same dice without walking the expression.
    plain: Option<(u32, u32)>,
    /// The dice's exact law (value, probability), each value once.
    law: Arc<[(i64, f64)]>,
    extras_step: i64,
}

impl SkillRoll {
    /// The roll `text` (parameter `field`) with one Extra per `extras_step`
    /// points above the difficulty.
    pub fn new(text: &str, field: &str, extras_step: i64) -> Result<Self, ParamError> {
        let bad = |m: String| ParamError::new(field, m);
        let dice = crate::systems::named_dice::parse(text)
            .map_err(|e| bad(format!("the roll '{text}' cannot be read: {e}")))?;
        if dice.is_probability() {
            return Err(bad(format!(
                "the roll '{text}' is a comparison (0 or 1), not a total such as \"2d6\""
            )));
        }
        let dist = dice.exact().map_err(|e| {
            bad(format!(
                "the roll '{text}' cannot be evaluated exactly: {e}"
            ))
        })?;
        let law: Vec<(i64, f64)> = dist.iter().filter(|(_, p)| *p > 0.0).collect();
        if law.len() > MAX_ROLL_OUTCOMES {
            return Err(bad(format!(
                "the roll '{text}' has {} different totals, more than the {MAX_ROLL_OUTCOMES} the exact evaluators branch on",
                law.len()
            )));
        }
        if extras_step < 1 {
            return Err(ParamError::new(
                "extras_step",
                format!("{extras_step} is impossible: an Extra needs at least 1 point"),
            ));
        }
        let plain = match &dice {
            Expr::Pool(pool)
                if pool.keep.is_none()
                    && pool.explode.is_none()
                    && pool.reroll.is_none()
                    && pool.faces.iter().copied().eq(1..=pool.faces.len() as i64) =>
            {
                Some((pool.count, pool.faces.len() as u32))
            }
            _ => None,
        };
        Ok(SkillRoll {
            dice,
            plain,
            law: law.into(),
            extras_step,
        })
    }

    /// The dice total (without the skill): the sampler rolls the real dice,
    /// the exact evaluator branches on the law.
    pub fn dice<R: Roller>(&self, dice: &mut R) -> i64 {
        dice.known(
            || self.law.clone(),
            |d| match self.plain {
                Some((count, sides)) => i64::from(d.sum(count, sides)),
                None => self.dice.sample(d),
            },
        )
    }

    /// The dice's exact law.
    pub fn law(&self) -> &[(i64, f64)] {
        &self.law
    }

    /// Points above the difficulty per Extra.
    pub fn extras_step(&self) -> i64 {
        self.extras_step
    }

    /// `None` for a failure (the total is below the difficulty), else the
    /// number of Extras: one per full step above the difficulty.
    pub fn extras(&self, total: i64, difficulty: i64) -> Option<u32> {
        (total >= difficulty).then(|| ((total - difficulty) / self.extras_step) as u32)
    }

    /// The lowest total the dice can show.
    pub fn lowest(&self) -> i64 {
        self.law[0].0
    }

    /// P(dice total + `bonus` reaches `difficulty`).
    pub fn p_success(&self, bonus: i64, difficulty: i64) -> f64 {
        self.law
            .iter()
            .filter(|(v, _)| v + bonus >= difficulty)
            .map(|(_, p)| p)
            .sum()
    }
}

/// Difficulty modifiers, "Stacking Modifiers": "+1 Asset", "-1 Unfavorable
/// Circumstance"; "Multiple modifiers stack", but "multiple assets of the
/// same type do not stack". `assets` is a comma-separated list of asset
/// types; each distinct type counts once.
pub fn modifier(assets: &str, unfavourable: i64) -> i64 {
    distinct_assets(assets) as i64 - unfavourable
}

/// The asset list of parameter `field`, refusing a bare count: assets of
/// the same type do not stack, so the spec names their types.
pub fn asset_list(field: &str, assets: Option<String>) -> Result<String, ParamError> {
    let assets = assets.unwrap_or_default();
    if assets.trim().parse::<i64>().is_ok() {
        return Err(ParamError::new(
            field,
            format!(
                "'{assets}' is a number: name the asset types, comma-separated (\"rope, climbing gear\"), since same-type assets do not stack"
            ),
        ));
    }
    Ok(assets)
}

/// How many different asset types a comma-separated list names.
pub fn distinct_assets(assets: &str) -> usize {
    let mut kinds: Vec<&str> = assets
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect();
    kinds.sort_unstable();
    kinds.dedup();
    kinds.len()
}

/// Cover, "Modifier Condition": "-2 Cover", "-4 Heavy Cover",
/// "unhittable Total Cover".
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Cover {
    /// In plain sight.
    None,
    /// -2.
    Light,
    /// -4 (also prone and facing the enemy).
    Heavy,
    /// Cannot be hit.
    Total,
}

impl Cover {
    /// The spec's words, in the order of [`Cover::parse`].
    pub const WORDS: &'static [&'static str] = &["none", "cover", "heavy", "total"];

    /// From a spec word.
    pub fn parse(word: &str) -> Cover {
        match word {
            "cover" => Cover::Light,
            "heavy" => Cover::Heavy,
            "total" => Cover::Total,
            _ => Cover::None,
        }
    }

    /// The attacker's penalty, or `None` when the target is unhittable.
    pub fn penalty(self) -> Option<i64> {
        match self {
            Cover::None => Some(0),
            Cover::Light => Some(-2),
            Cover::Heavy => Some(-4),
            Cover::Total => None,
        }
    }

    /// Whether an attack can hit a target behind this cover, and its
    /// penalty if so: the one reading of the cover fields (`cover`,
    /// `penetrable`) that the attack and scatter scenarios share.
    pub fn attacked(self, penetrable: bool) -> (bool, i64) {
        let cover = if penetrable { self.penetrated() } else { self };
        match cover.penalty() {
            Some(m) => (true, m),
            None => (false, 0),
        }
    }

    /// "When hiding behind materials that are penetrable by bullets ...
    /// decrease your Cover by one step. E.g. total cover becomes heavy
    /// cover; while in light cover you count as not being behind cover".
    pub fn penetrated(self) -> Cover {
        match self {
            Cover::None | Cover::Light => Cover::None,
            Cover::Heavy => Cover::Light,
            Cover::Total => Cover::Heavy,
        }
    }
}

/// "Every character has a minimum of 0 AP and a maximum of 6 AP."
pub const MAX_AP: u8 = 6;
/// "At the start of each turn, including the beginning of a Crisis, the
/// character recovers 4 AP."
pub const AP_PER_TURN: u8 = 4;

/// AP at the start of a turn with `carried` left over: "Any AP over 6 are
/// lost".
pub fn ap_at_turn_start(carried: u8) -> u8 {
    (carried + AP_PER_TURN).min(MAX_AP)
}

/// RoF: "optional, consecutive Attack rolls ... at the expense of 1 AP, and
/// a cumulative -2 penalty on HIT, per extra Attack".
pub const ROF_PENALTY: i64 = -2;

/// AP for `attacks` attacks in a turn: the first costs `attack_ap`, each
/// extra one 1 AP.
pub fn attacks_cost(attacks: u8, attack_ap: u8) -> u8 {
    if attacks == 0 {
        0
    } else {
        attack_ap + attacks - 1
    }
}

/// The most attacks `ap` pays for, at most `wanted`.
pub fn affordable_attacks(ap: u8, attack_ap: u8, wanted: u8) -> u8 {
    if ap < attack_ap {
        0
    } else {
        wanted.min(1 + ap - attack_ap)
    }
}

/// Health at which a creature dies: "If the Health drops to -10, the
/// creature immediately dies."
pub const DEAD_AT: i32 = -10;
/// "Attacks that deal more than 12 wounds in one hit also incapacitate the
/// target."
pub const OVERWHELMING_WOUNDS: i32 = 12;

/// A target's state during a crisis: Health, the separate non-lethal pool
/// and its armour's remaining Durability. Ordered so damage only moves one
/// way (health and durability down, non-lethal up).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Target {
    /// Current Health (at least [`DEAD_AT`]).
    pub health: i32,
    /// Non-lethal wounds (kept at most one above full Health: beyond it
    /// nothing changes).
    pub nonlethal: i32,
    /// The armour's Durability left.
    pub durability: i32,
    /// A hit of more than 12 wounds landed.
    pub overwhelmed: bool,
    /// A hit that would have killed was dealt as non-lethal force instead
    /// ([`Intent::KnockOut`]).
    pub spared: bool,
}

/// What the attacker means to do to the target, "Lethal": "When a target
/// would die from a lethal Attack, the attacker can decide whether or not
/// to apply non-lethal force, knocking the target unconcious instead of
/// killing it."
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Intent {
    /// Lethal force all the way.
    Kill,
    /// A hit that would kill is dealt as non-lethal force: its wounds go to
    /// the non-lethal pool, which knocks the target out.
    KnockOut,
}

impl Intent {
    /// The spec's words, in the order of [`Intent::parse`].
    pub const WORDS: &'static [&'static str] = &["kill", "knock_out"];

    /// The intent a spec names (one of [`Intent::WORDS`]).
    pub fn parse(word: &str) -> Intent {
        if word == "knock_out" {
            Intent::KnockOut
        } else {
            Intent::Kill
        }
    }
}

/// What one hit did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HitResult {
    /// Lethal wounds dealt.
    pub wounds: i32,
    /// Non-lethal wounds dealt.
    pub nonlethal: i32,
    /// Damage the armour blocked (taken off its Durability).
    pub blocked: i32,
}

/// The target's armour and who it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Defence {
    /// Full Health.
    pub health: i32,
    /// The armour's damage reduction.
    pub dr: i32,
}

impl Target {
    /// Unhurt, with armour of `durability`.
    pub fn fresh(health: i32, durability: i32) -> Target {
        Target {
            health,
            nonlethal: 0,
            durability,
            overwhelmed: false,
            spared: false,
        }
    }

    /// Already `wounds` lethal and `nonlethal` non-lethal wounds down.
    pub fn hurt(mut self, wounds: i32, nonlethal: i32) -> Target {
        self.health = (self.health - wounds).max(DEAD_AT);
        self.nonlethal = nonlethal;
        self
    }

    /// Takes `damage` (weapon damage + Extras + circumstance):
    ///
    /// - "all damage you deal is reduced by the target's DR. Damage that's
    ///   reduced by the Armor is dealt to the Armor's Durability instead. If
    ///   the Armor's Durability reaches 0, it does not provide DR anymore."
    ///   Reading: the armour blocks at most its remaining Durability.
    /// - Armour-piercing: "Some weapons ... circumvent the Armor's damage
    ///   reduction".
    /// - "If your damage would be reduced to 0 or lower ... you still deal 1
    ///   non-lethal damage".
    /// - Health 0 is Dying, -10 dead; "more than 12 wounds in one hit" also
    ///   incapacitates.
    pub fn take(&mut self, damage: i32, defence: Defence, armour_piercing: bool) -> HitResult {
        self.take_with_intent(damage, defence, armour_piercing, Intent::Kill)
    }

    /// [`Target::take`], where an attacker meaning to knock out deals a
    /// hit that would take Health to -10 as non-lethal wounds instead: the
    /// target keeps its Health and the non-lethal pool passes it ("knocking
    /// the target unconcious instead of killing it"). Reading: the choice
    /// only touches the killing hit; a hit leaving the target Dying stays
    /// lethal.
    pub fn take_with_intent(
        &mut self,
        damage: i32,
        defence: Defence,
        armour_piercing: bool,
        intent: Intent,
    ) -> HitResult {
        let blocked = if armour_piercing || self.durability <= 0 {
            0
        } else {
            defence.dr.min(damage.max(0)).min(self.durability)
        };
        self.durability -= blocked;
        let wounds = damage - blocked;
        if wounds <= 0 {
            self.nonlethal = (self.nonlethal + 1).min(defence.health + 1);
            HitResult {
                wounds: 0,
                nonlethal: 1,
                blocked,
            }
        } else if intent == Intent::KnockOut && self.health - wounds <= DEAD_AT {
            self.nonlethal = (self.nonlethal + wounds).min(defence.health + 1);
            self.spared = true;
            // "more than 12 wounds in one hit": a wound is lethal or not
            if wounds > OVERWHELMING_WOUNDS {
                self.overwhelmed = true;
            }
            HitResult {
                wounds: 0,
                nonlethal: wounds,
                blocked,
            }
        } else {
            self.health = (self.health - wounds).max(DEAD_AT);
            if wounds > OVERWHELMING_WOUNDS {
                self.overwhelmed = true;
            }
            HitResult {
                wounds,
                nonlethal: 0,
                blocked,
            }
        }
    }

    /// Dying: Health 0 or below, not yet dead.
    pub fn dying(&self) -> bool {
        self.health <= 0 && !self.dead()
    }

    /// Dead: Health -10.
    pub fn dead(&self) -> bool {
        self.health <= DEAD_AT
    }

    /// Knocked out by non-lethal damage: "If the non-lethal damage is higher
    /// than the target's current Health, the character becomes
    /// incapacitated."
    pub fn knocked_out(&self) -> bool {
        self.nonlethal > self.health
    }

    /// Out of the fight: dying, dead, knocked out or overwhelmed.
    pub fn incapacitated(&self) -> bool {
        self.health <= 0 || self.knocked_out() || self.overwhelmed
    }
}

/// The grid an area attack scatters on, "Area of Effect" and "Missing an
/// AoE Attack and Hex Grids".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Grid {
    /// Squares: a d8 picks one of the eight neighbouring directions, and
    /// "a number of squares" counts a diagonal step as one square.
    Square,
    /// Hexes: "With hexagonal grids you only have 6 adjacent fields. Use a
    /// d6 instead, and adjust the numbers accordingly."
    Hex,
}

/// A square of the grid relative to the target, `(right, ahead)` as the
/// thrower sees it (the thrower stands behind, on the negative `ahead`
/// side). On a hex grid the pair is axial coordinates.
pub type Square = (i32, i32);

/// The eight directions of a missed throw on squares, by d8 face: "A 1 is
/// being straight back at you, 5 away from you, and 2 through 8 counting
/// clockwise around the target." Seen from above with the thrower below
/// the target: back, then clockwise, left-back, left, left-ahead, ahead
/// (the 5: away), right-ahead, right, right-back. Clockwise or not does
/// not change any probability (the picture is mirror-symmetric).
pub const SQUARE_DIRECTIONS: [Square; 8] = [
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
];

/// The six directions on hexes by d6 face, axial coordinates, each next
/// to the one before: "adjust the numbers accordingly" read as 1 straight
/// back, 4 (opposite) away, 2 to 6 around the target in order.
pub const HEX_DIRECTIONS: [Square; 6] = [(0, -1), (-1, 0), (-1, 1), (0, 1), (1, 0), (1, -1)];

impl Grid {
    /// The spec's words, in the order of [`Grid::parse`].
    pub const WORDS: &'static [&'static str] = &["square", "hex"];

    /// The grid a spec names.
    pub fn parse(word: &str) -> Grid {
        if word == "hex" {
            Grid::Hex
        } else {
            Grid::Square
        }
    }

    /// The die of a miss's direction: d8 on squares, d6 on hexes.
    pub fn directions(self) -> &'static [Square] {
        match self {
            Grid::Square => &SQUARE_DIRECTIONS,
            Grid::Hex => &HEX_DIRECTIONS,
        }
    }

    /// `steps` squares from the target in direction `face` (1-based).
    pub fn towards(self, face: u32, steps: i32) -> Square {
        let (x, y) = self.directions()[face as usize - 1];
        (x * steps, y * steps)
    }

    /// Fields between two squares, stepping to neighbours (a diagonal is
    /// one step on squares).
    pub fn distance(self, a: Square, b: Square) -> i32 {
        let (dx, dy) = (a.0 - b.0, a.1 - b.1);
        match self {
            Grid::Square => dx.abs().max(dy.abs()),
            Grid::Hex => (dx.abs() + dy.abs() + (dx + dy).abs()) / 2,
        }
    }
}

/// Medicine check modifiers, "Healing A Character": "-2 penalty for
/// treating himself"; "Without any healing aids ... -2 penalty ... Having
/// the right tools at hand via an Asset, the penalty is reduced to 0, rather
/// than a +1 bonus. Multiple Assets can provide a bonus instead." Reading:
/// no asset -2, one 0, each further distinct asset +1.
pub fn medicine_modifier(self_treatment: bool, assets: usize) -> i64 {
    let aids = if assets == 0 { -2 } else { assets as i64 - 1 };
    aids - if self_treatment { 2 } else { 0 }
}

/// Natural healing modifiers, "Modifier Condition": "-2 Rough traveling",
/// "-2 No medical attention", "-2 Poor environmental conditions", "Medical
/// attention from self" (no number: 0), "+1 Medical attention from a
/// doctor", "+2 ... a doctor in good condition, such as a hospital".
pub const CARE: [(&str, i64); 4] = [("none", -2), ("self", 0), ("doctor", 1), ("hospital", 2)];

/// The care levels' words.
pub const CARE_WORDS: &[&str] = &["none", "self", "doctor", "hospital"];

/// The natural-healing modifier of a care level and conditions.
pub fn natural_healing_modifier(care: &str, rough_travel: bool, poor_conditions: bool) -> i64 {
    let care = CARE.iter().find(|(w, _)| *w == care).map_or(0, |(_, m)| *m);
    care - 2 * i64::from(rough_travel) - 2 * i64::from(poor_conditions)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::seed_text;

    const SEED: &str = super::super::SEED;

    #[test]
    fn worked_example_armour_blocks_three_of_five() {
        // "A target wears an armor with a physical DR of 3, and a durability
        // of 10. He receives 5 physical damage. ... The durability of armor
        // is reduced to 7, and the target only receives 2 points of damage."
        let defence = Defence { health: 10, dr: 3 };
        let mut t = Target::fresh(10, 10);
        let r = t.take(5, defence, false);
        assert_eq!((r.blocked, r.wounds, r.nonlethal), (3, 2, 0));
        assert_eq!((t.durability, t.health, t.nonlethal), (7, 8, 0));
    }

    #[test]
    fn worked_example_thirteen_nets_two_extras_under_the_defaults() {
        // "His roll results in a 13. This nets him 2 Extras. Whatever weapon
        // the attacker uses, he gains 2 extra damage." against DL 4.
        let roll = SkillRoll::new(DEFAULT_ROLL, "roll", DEFAULT_EXTRAS_STEP).unwrap();
        assert_eq!(roll.extras(13, NORMAL_DIFFICULTY), Some(2));
        // and 2 extra damage: a 3-damage weapon deals 5 to an unarmoured target
        let mut t = Target::fresh(10, 0);
        t.take(3 + 2, Defence { health: 10, dr: 0 }, false);
        assert_eq!(t.health, 5);
        // the step is the only one reproducing it
        let fits: Vec<i64> = (1..=9)
            .filter(|s| (13 - NORMAL_DIFFICULTY) / s == 2)
            .collect();
        assert_eq!(fits, vec![DEFAULT_EXTRAS_STEP]);
        assert_eq!(roll.extras(3, NORMAL_DIFFICULTY), None);
        assert_eq!(roll.extras(4, NORMAL_DIFFICULTY), Some(0));
    }

    #[test]
    fn armour_piercing_spent_armour_and_minimum_damage() {
        let d = Defence { health: 10, dr: 3 };
        let mut t = Target::fresh(10, 10);
        let r = t.take(5, d, true);
        assert_eq!((r.blocked, t.durability, t.health), (0, 10, 5));
        // durability 2 blocks only 2, then no more
        let mut t = Target::fresh(10, 2);
        t.take(5, d, false);
        assert_eq!((t.durability, t.health), (0, 7));
        t.take(5, d, false);
        assert_eq!(t.health, 2);
        // reduced to 0: 1 non-lethal, and the armour still absorbs
        let mut t = Target::fresh(10, 10);
        let r = t.take(2, d, false);
        assert_eq!((r.wounds, r.nonlethal, t.durability), (0, 1, 8));
        assert!(!t.incapacitated());
        // more than 12 wounds in one hit incapacitates
        let mut t = Target::fresh(30, 0);
        t.take(13, d, false);
        assert!(t.overwhelmed && t.incapacitated() && t.health == 17);
        // dying at 0, dead at -10
        let mut t = Target::fresh(5, 0);
        t.take(5, d, false);
        assert!(t.dying() && !t.dead());
        t.take(10, d, false);
        assert!(t.dead());
        // non-lethal higher than current Health knocks out
        let mut t = Target::fresh(2, 0);
        t.take(1, Defence { health: 2, dr: 5 }, false);
        t.take(1, Defence { health: 2, dr: 5 }, false);
        assert!(!t.knocked_out());
        t.take(1, Defence { health: 2, dr: 5 }, false);
        assert!(t.knocked_out() && t.incapacitated());
    }

    #[test]
    fn ap_cap_holds_across_turns() {
        // one 1-AP attack a turn: 4, then 3 + 4 = 7 capped to 6, then 5 + 4 capped to 6
        let mut carried = 0;
        let mut seen = Vec::new();
        for _ in 0..4 {
            let ap = ap_at_turn_start(carried);
            seen.push(ap);
            carried = ap - attacks_cost(1, 1);
        }
        assert_eq!(seen, vec![4, 6, 6, 6]);
        // four attacks at 1 AP (RoF 4) spend everything: 4 each turn
        assert_eq!(affordable_attacks(4, 1, 4), 4);
        assert_eq!(affordable_attacks(6, 2, 6), 5);
        assert_eq!(affordable_attacks(1, 2, 3), 0);
        assert_eq!(attacks_cost(3, 2), 4);
        assert!((0..=MAX_AP).all(|c| ap_at_turn_start(c) <= MAX_AP));
    }

    #[test]
    fn modifiers_cover_and_care() {
        assert_eq!(modifier("climbing gear, climbing gear, rope", 1), 1);
        assert_eq!(modifier("", 2), -2);
        assert_eq!(Cover::Total.penetrated(), Cover::Heavy);
        assert_eq!(Cover::Heavy.penetrated(), Cover::Light);
        assert_eq!(Cover::Light.penetrated(), Cover::None);
        assert_eq!(Cover::Total.penalty(), None);
        // "total cover becomes heavy cover; while in light cover you count
        // as not being behind cover": heavy -4, total unhittable
        assert_eq!(Cover::Total.attacked(false), (false, 0));
        assert_eq!(Cover::Total.attacked(true), (true, -4));
        assert_eq!(Cover::Heavy.attacked(true), (true, -2));
        assert_eq!(Cover::Light.attacked(true), (true, 0));
        assert_eq!(Cover::Light.attacked(false), (true, -2));
        assert_eq!(medicine_modifier(true, 0), -4);
        assert_eq!(medicine_modifier(false, 1), 0);
        assert_eq!(medicine_modifier(false, 3), 2);
        assert_eq!(natural_healing_modifier("none", true, false), -4);
        assert_eq!(natural_healing_modifier("hospital", false, false), 2);
    }

    #[test]
    fn skill_roll_errors_are_named() {
        let e = SkillRoll::new("2d6+", "roll", 4).unwrap_err();
        assert_eq!(e.field, "roll");
        let e = SkillRoll::new("2d6>=7", "roll", 4).unwrap_err();
        assert!(e.message.contains("comparison"), "{e}");
        let e = SkillRoll::new("2d6", "roll", 0).unwrap_err();
        assert_eq!(e.field, "extras_step");
        let r = SkillRoll::new("2d6", "roll", 4).unwrap();
        assert!((r.p_success(0, 7) - 21.0 / 36.0).abs() < 1e-12);
        // the plain-sum sampler rolls the very dice the expression rolls
        assert_eq!(r.plain, Some((2, 6)));
        let mut a = crate::dice::BatchedRoller::new(3, &[1]);
        let mut b = crate::dice::BatchedRoller::new(3, &[1]);
        for _ in 0..1000 {
            assert_eq!(r.dice(&mut a), r.dice.sample(&mut b));
        }
        assert_eq!(SkillRoll::new("2d6+1", "roll", 4).unwrap().plain, None);
        assert_eq!(SkillRoll::new("d{0,1,2}", "roll", 4).unwrap().plain, None);
        assert_eq!(r.lowest(), 2);
    }

    #[test]
    fn difficulty_by_number_or_name() {
        assert_eq!(difficulty_level("12"), Ok(12));
        assert_eq!(difficulty_level("Hard"), Ok(12));
        assert_eq!(difficulty_level("  very hard "), Ok(16));
        assert_eq!(difficulty_level("VERY_HARD"), Ok(16));
        assert_eq!(difficulty_level("very-hard"), Ok(16));
        assert_eq!(difficulty_level("trivial"), Ok(0));
        for (level, name) in DIFFICULTY_LADDER {
            assert_eq!(difficulty_level(name), Ok(level));
        }
        let e = difficulty_level("chalenging").unwrap_err();
        assert!(e.contains("did you mean 'challenging'"), "{e}");
        assert!(e.contains("8 Challenging"), "{e}");
        let e = difficulty_level("41").unwrap_err();
        assert!(e.contains("0 to 40"), "{e}");
        assert!(difficulty_level("-1").is_err());
        assert!(
            !difficulty_level("tough")
                .unwrap_err()
                .contains("did you mean")
        );
    }

    #[test]
    fn knock_out_intent_spares_only_the_killing_hit() {
        let d = Defence { health: 10, dr: 0 };
        // down to 0: Dying, lethal whatever the intent
        let mut t = Target::fresh(10, 0);
        let r = t.take_with_intent(10, d, false, Intent::KnockOut);
        assert_eq!((r.wounds, t.health, t.spared), (10, 0, false));
        assert!(t.dying());
        // a hit that would reach -10 goes to the non-lethal pool instead
        let r = t.take_with_intent(10, d, false, Intent::KnockOut);
        assert_eq!((r.wounds, r.nonlethal, t.health), (0, 10, 0));
        assert!(t.spared && t.knocked_out() && !t.dead());
        // with lethal intent it kills
        let mut t = Target::fresh(10, 0);
        t.take(20, d, false);
        assert!(t.dead());
        let mut t = Target::fresh(10, 0);
        t.take_with_intent(20, d, false, Intent::KnockOut);
        assert!(!t.dead() && t.knocked_out() && t.overwhelmed && t.health == 10);
    }

    #[test]
    fn scatter_directions_go_round_the_target() {
        for grid in [Grid::Square, Grid::Hex] {
            let dirs = grid.directions();
            let n = dirs.len();
            // 1 straight back (towards the thrower, below the target)
            assert_eq!(dirs[0], (0, -1));
            for (i, &d) in dirs.iter().enumerate() {
                // every direction a neighbour, all different, each next to
                // the one before ("counting clockwise around the target")
                assert_eq!(grid.distance(d, (0, 0)), 1);
                assert_eq!(grid.distance(d, dirs[(i + 1) % n]), 1);
                assert!(dirs[..i].iter().all(|&e| e != d));
                // the face opposite is straight across
                assert_eq!(dirs[(i + n / 2) % n], (-d.0, -d.1));
            }
        }
        // "5 away from you"; on hexes the 4
        assert_eq!(Grid::Square.towards(5, 3), (0, 3));
        assert_eq!(Grid::Hex.towards(4, 2), (0, 2));
        // a diagonal miss by 2 squares is 2 squares off
        assert_eq!(Grid::Square.distance(Grid::Square.towards(2, 2), (0, 0)), 2);
        assert_eq!(Grid::Hex.distance((2, -1), (0, 0)), 2);
    }

    /// The seed's text, whitespace squeezed.
    fn seed_words() -> Option<String> {
        if !seed_text::available(SEED) {
            return None;
        }
        Some(
            seed_text::seed(SEED)
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" "),
        )
    }

    #[test]
    fn tables_match_the_seed() {
        let Some(text) = seed_words() else { return };
        let has = |s: &str| assert!(text.contains(s), "the seed says '{s}'");
        let ladder = text
            .split("Difficulty Level Name Description ")
            .nth(1)
            .expect("the ladder");
        let rows: Vec<(i64, String)> = ladder
            .split(". ")
            .take(DIFFICULTY_LADDER.len())
            .map(|row| {
                let (level, rest) = row.split_once(' ').expect("level and name");
                (level.parse().expect("a level"), rest.to_string())
            })
            .collect();
        for ((level, name), (seed_level, seed_row)) in DIFFICULTY_LADDER.iter().zip(&rows) {
            assert_eq!(level, seed_level);
            assert!(seed_row.starts_with(name), "{seed_row} is {name}");
        }
        has("Every task usually has a difficulty of 4");
        has("+1 Asset");
        has("-1 Unfavorable Circumstance");
        has("multiple assets of the same type do not stack");
        has("-2 Cover -4 Heavy Cover unhittable Total Cover");
        has(
            "total cover becomes heavy cover; while in light cover you count as not being behind cover at all",
        );
        has("a minimum of 0 AP and a maximum of 6 AP");
        has("the character recovers 4 AP");
        has("at the expense of 1 AP, and a cumulative -2 penalty on HIT, per extra Attack");
        has("The Difficulty Level to hit is a 4");
        has("The Difficulty Level to hit is the target’s Parry value");
        has("you still deal 1 non-lethal damage");
        has("If the Health drops to -10, the creature immediately dies");
        has("more than 12 wounds in one hit also incapacitate");
        has("suffers a -2 penalty for treating himself");
        has("the penalty is reduced to 0, rather than a +1 bonus");
        has("heals 2 non-lethal wounds");
        has("-2 Rough traveling -2 No medical attention -2 Poor environmental conditions");
        has(
            "Medical attention from self +1 Medical attention from a doctor +2 Medical attention from a doctor in good condition",
        );
        has("His roll results in a 13. This nets him 2 Extras");
        has(
            "A 1 is being straight back at you, 5 away from you, and 2 through 8 counting clockwise around the target",
        );
        has("You miss by a number of squares equal to the range increment of the throw");
        has("With hexagonal grids you only have 6 adjacent fields. Use a d6 instead");
        has("the attacker can decide whether or not to apply non-lethal force");
        has("knocking the target unconcious instead of killing it");
        has("you gain an additional turn before actual combat starts");
        has("An Area of Effect weapon does not receive extra damage from Extras");
        has(
            "The durability of armor is reduced to 7, and the target only receives 2 points of damage",
        );
    }
}
