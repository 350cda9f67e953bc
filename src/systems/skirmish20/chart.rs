//! The seed's tables as data: the Ranged and Close Combat Weapons Factor
//! Charts (rows a spec can add or override: a row is text in the chart's own
//! column order), the Effect of Hit Chart, the Vehicle Damage Table and the
//! Quick Draw Initiative Table. Every table is checked against the seed
//! text, cell by cell, in the tests below.

use crate::systems::PresetDecl;
use crate::systems::{FromParam, ParamError, Params};

/// The armour classes, in the chart's column order: "Std Armour 5+",
/// "Storm Troops (Tau) 4+", "Necron/ Power 3+", "Tank 2+".
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Armour {
    /// Std Armour (5+).
    Std,
    /// Storm Troops, Tau (4+).
    Storm,
    /// Necron / Power (3+).
    Power,
    /// Tank (2+).
    Tank,
}

impl Armour {
    /// Spec words, in column order.
    pub const WORDS: &'static [&'static str] = &["std", "storm", "power", "tank"];

    /// The class named `word` (one of [`Armour::WORDS`]).
    pub fn from_word(word: &str) -> Option<Armour> {
        Some(match word {
            "std" => Armour::Std,
            "storm" => Armour::Storm,
            "power" => Armour::Power,
            "tank" => Armour::Tank,
            _ => return None,
        })
    }

    /// Column index.
    pub fn column(self) -> usize {
        self as usize
    }
}

/// An armour class parameter, declared as a choice of [`Armour::WORDS`].
impl FromParam for Armour {
    fn from_param(p: &Params, name: &str) -> Result<Self, ParamError> {
        let w = p.need_word(name)?;
        Armour::from_word(&w).ok_or_else(|| ParamError::new(name, format!("unknown armour '{w}'")))
    }
}

/// One armour column of a ranged weapon row: "18 / 8 (L-10)" is a target
/// value 18, 8 for others under the blast, lock-on 10. `None` is "X": no
/// chance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RangedCell {
    /// To hit and penetrate the target aimed at.
    pub target: Option<u8>,
    /// "roll 8 or less for any other target caught in the blast area"; the
    /// target's value when the chart gives one number ("use the one single
    /// value against all targets under the blast radius").
    pub others: Option<u8>,
    /// The missile launcher's "L-xx" lock-on number.
    pub lock_on: Option<u8>,
}

/// The "AP's" column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ApCost {
    /// "1".
    One,
    /// "2".
    Two,
    /// "1/2": "1AP upto half range and 2AP above this range".
    HalfRange,
}

/// The "Effect of 20 on 1D20" column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnTwenty {
    /// "Jam": "need 2AP's effort to unjam them".
    Jam,
    /// "out of fuel": "Flamers run out of fuel for good".
    OutOfFuel,
    /// "broken": "plasmas and meltas pack up and are useless for rest of game".
    Broken,
}

impl OnTwenty {
    /// Whether the weapon is lost for the rest of the game.
    pub fn lost_for_good(self) -> bool {
        !matches!(self, OnTwenty::Jam)
    }
}

/// One row of the RANGED COMBAT WEAPONS FACTOR CHART.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RangedRow {
    /// "MAX RANGE INS".
    pub max_range: u32,
    /// One cell per armour class, in [`Armour`] order.
    pub cells: [RangedCell; 4],
    /// "AP's".
    pub ap: ApCost,
    /// "Effect of 20 on 1D20".
    pub on_20: OnTwenty,
}

/// The column order a row is written in, for error messages.
pub const RANGED_ROW_FORM: &str = "max range | std | storm | power | tank | AP (1, 2 or 1/2) | effect of a 20 (jam, out of fuel, broken)";

/// A chart value: a whole number from 1 to 30, or "X".
fn parse_value(text: &str, field: &str) -> Result<Option<u8>, ParamError> {
    let t = text.trim();
    if t.eq_ignore_ascii_case("x") {
        return Ok(None);
    }
    if t.len() > 1 && t[..1].eq_ignore_ascii_case("x") {
        return Err(ParamError::new(
            field,
            format!(
                "'{t}': X means no chance at all and takes no modifier (write X alone; modifiers are parameters of the shot)"
            ),
        ));
    }
    match t.parse::<u8>() {
        Ok(v) if (1..=30).contains(&v) => Ok(Some(v)),
        _ => Err(ParamError::new(
            field,
            format!("'{t}' is not a chart value: a whole number 1-30 or X"),
        )),
    }
}

/// One armour cell: "8", "X", "12/8", "3/X", "18/8 L-10", "18 / 8 (L-10)".
pub fn parse_ranged_cell(text: &str, field: &str) -> Result<RangedCell, ParamError> {
    let mut t = text.trim().to_string();
    let mut lock_on = None;
    if let Some(at) = t.to_ascii_uppercase().find("L-") {
        let tail: String = t[at + 2..]
            .chars()
            .filter(|c| !matches!(c, '(' | ')' | ' '))
            .collect();
        let l = tail.parse::<u8>().ok().filter(|v| (1..=20).contains(v));
        lock_on = Some(l.ok_or_else(|| {
            ParamError::new(
                field,
                format!("'{text}': a lock-on number is written L-10 ... L-20"),
            )
        })?);
        t = t[..at].trim().trim_end_matches('(').trim().to_string();
    }
    let (target, others) = match t.split_once('/') {
        Some((a, b)) => (parse_value(a, field)?, parse_value(b, field)?),
        None => {
            let v = parse_value(&t, field)?;
            (v, v)
        }
    };
    if target.is_none() && others.is_some() {
        return Err(ParamError::new(
            field,
            format!(
                "'{text}': X against the target aimed at but not against others under the blast"
            ),
        ));
    }
    Ok(RangedCell {
        target,
        others,
        lock_on,
    })
}

/// A chart row written in the chart's column order, `|` between columns:
/// `24 | 8 | 6 | 4 | 1 | 1/2 | jam`. `field` names the parameter in errors.
pub fn parse_ranged_row(text: &str, field: &str) -> Result<RangedRow, ParamError> {
    let cols: Vec<&str> = text.split('|').map(str::trim).collect();
    if cols.len() != 7 {
        let armour = cols.len().saturating_sub(3);
        return Err(ParamError::new(
            field,
            format!(
                "a weapon row has 7 columns ({RANGED_ROW_FORM}); '{text}' has {} (so {armour} armour values, not 4)",
                cols.len()
            ),
        ));
    }
    let max_range = cols[0]
        .parse::<u32>()
        .ok()
        .filter(|r| (1..=200).contains(r))
        .ok_or_else(|| {
            ParamError::new(
                field,
                format!("max range '{}' must be whole inches 1-200", cols[0]),
            )
        })?;
    let mut cells = [RangedCell {
        target: None,
        others: None,
        lock_on: None,
    }; 4];
    for (i, c) in cells.iter_mut().enumerate() {
        *c = parse_ranged_cell(cols[1 + i], field)?;
    }
    let locks = cells.iter().filter(|c| c.lock_on.is_some()).count();
    if locks != 0 && locks != 4 {
        return Err(ParamError::new(
            field,
            format!("'{text}': a lock-on weapon gives an L- number in every armour column"),
        ));
    }
    let ap = match cols[5] {
        "1" => ApCost::One,
        "2" => ApCost::Two,
        "1/2" => ApCost::HalfRange,
        other => {
            return Err(ParamError::new(
                field,
                format!("AP '{other}' must be 1, 2 or 1/2"),
            ));
        }
    };
    let on_20 = match cols[6].to_ascii_lowercase().replace('_', " ").as_str() {
        "jam" => OnTwenty::Jam,
        "out of fuel" => OnTwenty::OutOfFuel,
        "broken" => OnTwenty::Broken,
        other => {
            return Err(ParamError::new(
                field,
                format!("the effect of a 20 '{other}' must be jam, out of fuel or broken"),
            ));
        }
    };
    Ok(RangedRow {
        max_range,
        cells,
        ap,
        on_20,
    })
}

/// What a blast or template covers, from the weapon's name in the chart
/// ("(+ small blast)", "(Template)", "(+large area)" ...).
pub const AREAS: &[&str] = &["none", "small_blast", "large_blast", "template"];

/// A weapon preset: the row text, the area, and whether it is a heavy
/// weapon.
macro_rules! ranged {
    ($name:literal, $row:literal, $area:literal, $heavy:literal, $source:literal) => {
        PresetDecl {
            catalogue: "weapon",
            name: $name,
            sets: &[("row", $row), ("area", $area), ("heavy", $heavy)],
            source: $source,
        }
    };
}

/// A close combat preset: the row, the attacks, whether a hit squashes.
macro_rules! close {
    ($name:literal, $row:literal, $attacks:literal, $squash:literal, $source:literal) => {
        PresetDecl {
            catalogue: "close_weapon",
            name: $name,
            sets: &[("row", $row), ("attacks", $attacks), ("squash", $squash)],
            source: $source,
        }
    };
}

/// Ranged weapons: every chart row, by name, as the row text the spec
/// parameter `weapon_row` takes, the area its name gives, and whether it is
/// a heavy weapon: "Heavy weapons which are large weapons which normally
/// need 2AP's to fire" (every 2-AP row), and the two 1-AP rows of the
/// vehicles and destroyers that "get 4AP's allowing them to move very fast
/// AND fire heavy weapons" (the vehicle based chaingun, the Necron
/// Destroyer gun): "1AP heavy weapons jam means miss rest of this tun only".
pub const PRESETS: &[PresetDecl] = &[
    ranged!(
        "laser_machine_pistol",
        "12 | 7 | 4 | 2 | X | 1 | jam",
        "none",
        "false",
        "Laser / Machine Pistol"
    ),
    ranged!(
        "laser_assault_rifle",
        "24 | 7 | 5 | 3 | X | 1/2 | jam",
        "none",
        "false",
        "Laser / Assault Rifle"
    ),
    ranged!(
        "auto_shotgun",
        "10 | 10 | 5 | 2 | X | 1 | jam",
        "none",
        "false",
        "Auto Shotgun"
    ),
    ranged!(
        "grenade_launcher",
        "24 | 12/8 | 10/5 | 6/2 | 3/X | 2 | jam",
        "small_blast",
        "true",
        "Grenade Launcher (A/T or small blast)"
    ),
    ranged!(
        "mortar",
        "36 | 10 | 7 | 5 | 2 | 2 | jam",
        "large_blast",
        "true",
        "Mortar (Large Blast)"
    ),
    ranged!(
        "bolt_pistol",
        "12 | 8 | 5 | 3 | X | 1 | jam",
        "none",
        "false",
        "Bolt Pistol"
    ),
    ranged!(
        "bolt_rifle",
        "24 | 8 | 6 | 4 | 1 | 1/2 | jam",
        "none",
        "false",
        "Bolt Rifle"
    ),
    ranged!(
        "missile_launcher",
        "30 | 18/8 L-10 | 17/6 L-12 | 12/3 L-14 | 9/X L-16 | 2 | jam",
        "small_blast",
        "true",
        "Missile Launcher (+ small blast)"
    ),
    ranged!(
        "flame_thrower",
        "8 | 10 | 7 | 6 | 4 | 2 | out of fuel",
        "template",
        "true",
        "Flame thrower (Template)"
    ),
    ranged!(
        "plasma_pistol",
        "12 | 8 | 7 | 6 | 3 | 1 | broken",
        "none",
        "false",
        "Plasma Pistol"
    ),
    ranged!(
        "heavy_plasma_rifle",
        "18 | 13 | 11 | 10 | 7 | 2 | broken",
        "none",
        "true",
        "Hvy Plasma Rifle"
    ),
    ranged!(
        "melta_gun",
        "12 | 13 | 12 | 11 | 9 | 2 | broken",
        "none",
        "true",
        "Melta Gun (anti tank)"
    ),
    ranged!(
        "tau_plasma_rifle",
        "24 | 9 | 7 | 5 | 2 | 1/2 | jam",
        "none",
        "false",
        "Tau Plasma rifle/carbine"
    ),
    ranged!(
        "necron_rifle",
        "24 | 10 | 8 | 7 | 5 | 1/2 | jam",
        "none",
        "false",
        "\"Necron\" Rifle"
    ),
    ranged!(
        "necron_destroyer_gun",
        "30 | 12 | 10 | 9 | 6 | 1 | jam",
        "small_blast",
        "true",
        "\"Necron Destroyer\" Gun (+ small blast)"
    ),
    ranged!(
        "heavy_bolter",
        "24 | 10 | 6 | 3 | X | 2 | jam",
        "large_blast",
        "true",
        "Hvy Bolter / Chain Gun (+large blast)"
    ),
    ranged!(
        "autocannon",
        "30 | 12 | 9 | 7 | 4 | 2 | jam",
        "large_blast",
        "true",
        "Autocannon / multilaser / (+large area)"
    ),
    ranged!(
        "vehicle_chaingun",
        "24 | 12 | 9 | 7 | 4 | 1 | jam",
        "small_blast",
        "true",
        "Vehicle based chaingun (+small area)"
    ),
    ranged!(
        "heavy_tank_gun",
        "36 | 18/12 | 16/10 | 14/6 | 10/4 | 2 | jam",
        "large_blast",
        "true",
        "Hvy Tank Gun (+large blast)"
    ),
    // Close combat weapons: every chart row by name, with the attacks the seed
    // gives ("Creatures ... with "claws" get 2 attacks", "Necron Scarab Swarm
    // (4 attacks)", "War droids / cyborgs (1 attack)") and the walker, which
    // has no row: it "destroy[s] any target smaller than them on a roll of
    // "10" or less. (and get 2 attacks) No roll for injury, auto dead" and "can
    // not engage tanks and APC's".
    close!("hand_weapon", "8 | 6 | 3 | 1", "1", "false", "Hand Weapon"),
    close!(
        "shoulder_weapon",
        "5 | 4 | 2 | 1",
        "1",
        "false",
        "Shoulder weapon"
    ),
    close!(
        "heavy_weapon",
        "2 | 2 | 2 | 2",
        "1",
        "false",
        "Heavy Weapon"
    ),
    close!(
        "aliens_claws",
        "9 | 5 | 3 | 2",
        "2",
        "false",
        "\"Aliens\" / Tyrannid Gaunts / Necron Flayed Ones (claws: 2 attacks)"
    ),
    close!(
        "tomb_spider",
        "12 | 10 | 9 | 8",
        "2",
        "false",
        "Necron Tomb Spider (claws: 2 attacks)"
    ),
    close!(
        "power_weapon",
        "12 | 10 | 8 | 6",
        "1",
        "false",
        "Power Weapons / Necron Lords Staff"
    ),
    close!(
        "necron_warrior",
        "8 | 6 | 5 | 4",
        "1",
        "false",
        "Necron Warrior or Destroyer (or war droid)"
    ),
    close!(
        "scarab_swarm",
        "3 | 2 | 1 | X",
        "4",
        "false",
        "Necron Scarab Swarm (4 attacks)"
    ),
    close!(
        "war_droid",
        "10 | 8 | 6 | 4",
        "1",
        "false",
        "War droids / cyborgs (1 attack)"
    ),
    close!(
        "anti_tank_grenades",
        "n/a | 7 | 6 | 5",
        "1",
        "false",
        "Anti Tank Grenades"
    ),
    close!(
        "walker",
        "10 | 10 | 10 | X",
        "2",
        "true",
        "Sentinel or other walker: squash on 10 or less, 2 attacks, no roll for injury"
    ),
    // Vehicles (catalogue `vehicle`), from the Vehicle characteristics
    // table: the guns besides the biggest one.
    PresetDecl {
        catalogue: "vehicle",
        name: "chimera",
        sets: &[("minor_guns", "1")],
        source: "Chimera APC: 1 Autocannon (or 1 vehicle chaingun) + 1 heavy bolter",
    },
    PresetDecl {
        catalogue: "vehicle",
        name: "sentinel",
        sets: &[("minor_guns", "0")],
        source: "Sentinel Walker: 1 Autocannon",
    },
];

/// One row of the CLOSE COMBAT WEAPONS FACTOR CHART: "TO HIT AND PENETRATE
/// 1D20" against "Std Armour", "Storm Trooper", "Power + APC", "Tank";
/// `None` is "X" or "n/a".
pub type CloseRow = [Option<u8>; 4];

/// A close combat row written `8 | 6 | 3 | 1` (std | storm | power + APC |
/// tank), `X` or `n/a` where the weapon has no chance.
pub fn parse_close_row(text: &str, field: &str) -> Result<CloseRow, ParamError> {
    let cols: Vec<&str> = text.split('|').map(str::trim).collect();
    if cols.len() != 4 {
        return Err(ParamError::new(
            field,
            format!(
                "a close combat row has 4 armour values (std | storm | power + APC | tank); '{text}' has {}",
                cols.len()
            ),
        ));
    }
    let mut row = [None; 4];
    for (cell, col) in row.iter_mut().zip(&cols) {
        *cell = if col.eq_ignore_ascii_case("n/a") {
            None
        } else {
            parse_value(col, field)?
        };
    }
    Ok(row)
}

/// A result of the EFFECT OF HIT CHART.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Effect {
    /// "Duck Back".
    DuckBack,
    /// "Wounded".
    Wounded,
    /// "Dead".
    Dead,
}

/// The EFFECT OF HIT CHART (D6): "Hero 1-3 / common trooper 1-2 Duck Back;
/// 4-5 / 3-4 Wounded; 6 / 5-6 Dead". `roll` may be modified ("with -1 to
/// the roll" for passengers): below 1 reads as the lowest band.
pub fn effect_of_hit(roll: i32, hero: bool) -> Effect {
    let (duck_to, wound_to) = if hero { (3, 5) } else { (2, 4) };
    if roll <= duck_to {
        Effect::DuckBack
    } else if roll <= wound_to {
        Effect::Wounded
    } else {
        Effect::Dead
    }
}

/// A result of the Vehicle Damage Table (1D10), in table order: the next
/// one up is the next variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum VehicleResult {
    /// 1-2 "Bounce off with no real damage".
    Bounce,
    /// 3-4 ""Stunned" can't move or shoot for the rest of the turn".
    Stunned,
    /// 5 "A minor Gun taken out permanently".
    MinorGun,
    /// 6 "Biggest Gun taken out permanently".
    BiggestGun,
    /// 7 "Vehicle immobilised permanently".
    Immobilised,
    /// 8 "Vehicle Immobilised, and all guns destroyed. All passengers ...
    /// roll on "effect of hit chart" with -1 to the roll".
    ImmobilisedAndGuns,
    /// 9 "Vehicle Burns. All passengers ... roll on "effect of hit chart" no
    /// modifiers".
    Burns,
    /// 10 "Vehicle explodes ... No one of any sort gets out alive".
    Explodes,
}

impl VehicleResult {
    /// The table's row for a D10 roll.
    pub fn from_d10(roll: u32) -> VehicleResult {
        match roll {
            1 | 2 => VehicleResult::Bounce,
            3 | 4 => VehicleResult::Stunned,
            5 => VehicleResult::MinorGun,
            6 => VehicleResult::BiggestGun,
            7 => VehicleResult::Immobilised,
            8 => VehicleResult::ImmobilisedAndGuns,
            9 => VehicleResult::Burns,
            _ => VehicleResult::Explodes,
        }
    }

    /// "take the next up".
    pub fn next_up(self) -> VehicleResult {
        match self {
            VehicleResult::Bounce => VehicleResult::Stunned,
            VehicleResult::Stunned => VehicleResult::MinorGun,
            VehicleResult::MinorGun => VehicleResult::BiggestGun,
            VehicleResult::BiggestGun => VehicleResult::Immobilised,
            VehicleResult::Immobilised => VehicleResult::ImmobilisedAndGuns,
            VehicleResult::ImmobilisedAndGuns => VehicleResult::Burns,
            VehicleResult::Burns | VehicleResult::Explodes => VehicleResult::Explodes,
        }
    }
}

/// Quick Draw INITIATIVE TABLE (1D10): the armour modifier, "Std armour
/// (5+) 4", "Storm Troop armour (4+) 3", "Power armour/ chimera/ sentinel
/// 2", "Heavy Tank 1".
pub fn quick_draw_armour(armour: Armour) -> i32 {
    match armour {
        Armour::Std => 4,
        Armour::Storm => 3,
        Armour::Power => 2,
        Armour::Tank => 1,
    }
}

/// Weapon classes of the Quick Draw table: "Hand Gun +2", "Rifle shoulder
/// weapon 0", "Heavy Weapon -2".
pub const WEAPON_CLASSES: &[&str] = &["hand_gun", "rifle", "heavy"];

/// The Quick Draw weapon modifier of a class in [`WEAPON_CLASSES`].
pub fn quick_draw_weapon(class: &str) -> i32 {
    match class {
        "hand_gun" => 2,
        "heavy" => -2,
        _ => 0,
    }
}

/// "fast draw +4".
pub const FAST_DRAW: i32 = 4;
/// "Returning fire ahead of turn -3".
pub const AHEAD_OF_TURN: i32 = -3;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::seed_text;

    /// The seed file.
    const SEED: &str = super::super::SEED;

    /// Lines of the seed from the one equal to `start` up to (not
    /// including) the first starting with `end`, trimmed, blanks dropped.
    fn lines_between(text: &str, start: &str, end: &str) -> Vec<String> {
        text.lines()
            .map(str::trim)
            .skip_while(|l| *l != start)
            .take_while(|l| !l.starts_with(end))
            .filter(|l| !l.is_empty())
            .map(String::from)
            .collect()
    }

    fn of(catalogue: &str) -> Vec<&'static PresetDecl> {
        PRESETS
            .iter()
            .filter(|p| p.catalogue == catalogue)
            .collect()
    }

    fn preset(catalogue: &str, name: &str) -> &'static PresetDecl {
        PRESETS
            .iter()
            .find(|p| p.catalogue == catalogue && p.name == name)
            .unwrap()
    }

    fn set<'a>(p: &'a PresetDecl, stat: &str) -> &'a str {
        p.sets.iter().find(|(k, _)| *k == stat).unwrap().1
    }

    #[test]
    fn every_ranged_row_is_the_seeds_cell_by_cell() {
        if !seed_text::available(SEED) {
            return;
        }
        let text = seed_text::seed(SEED);
        let mut lines = lines_between(&text, "Laser / Machine Pistol", "No unit may use");
        // "18 / 8" then "(L-10)": one cell over two lines
        let mut merged: Vec<String> = Vec::new();
        for l in lines.drain(..) {
            if l.starts_with("(L-") {
                let last = merged.last_mut().unwrap();
                last.push(' ');
                last.push_str(&l);
            } else {
                merged.push(l);
            }
        }
        let rows: Vec<&[String]> = merged.chunks(8).collect();
        let presets = of("weapon");
        assert_eq!(rows.len(), presets.len(), "every chart row has a preset");
        for (seed_row, p) in rows.iter().zip(presets) {
            assert_eq!(seed_row.len(), 8);
            assert_eq!(
                seed_row[0], p.source,
                "preset {} follows the chart order",
                p.name
            );
            let from_seed = parse_ranged_row(&seed_row[1..].join(" | "), "seed").unwrap();
            let ours = parse_ranged_row(set(p, "row"), "preset").unwrap();
            assert_eq!(from_seed, ours, "{}: every cell", p.name);
            let area = set(p, "area");
            let name = seed_row[0].to_ascii_lowercase();
            let expected = if name.contains("template") {
                "template"
            } else if name.contains("small") || name.contains("a/t") {
                "small_blast"
            } else if name.contains("large") {
                "large_blast"
            } else {
                "none"
            };
            assert_eq!(area, expected, "{}: area from its name", p.name);
            // heavy: the 2-AP rows, and the vehicles' and destroyers' guns
            let heavy = seed_row[6] == "2"
                || seed_row[0].starts_with("Vehicle based")
                || seed_row[0].contains("Destroyer");
            assert_eq!(set(p, "heavy"), heavy.to_string(), "{}: heavy", p.name);
        }
        for quote in [
            "Heavy weapons which are large weapons which normally need 2AP's to fire",
            "All vehicles, sentinels, Necron destroyers get 4AP's allowing them to move very fast AND fire heavy weapons",
            "1AP heavy weapons jam means miss rest of this tun only",
        ] {
            assert!(text.contains(quote), "the seed says: {quote}");
        }
    }

    #[test]
    fn every_close_combat_row_is_the_seeds() {
        if !seed_text::available(SEED) {
            return;
        }
        let text = seed_text::seed(SEED);
        let lines: Vec<String> = lines_between(&text, "Hand Weapon", "Sentinel or other walker")
            .into_iter()
            .filter(|l| !l.starts_with("Creatures"))
            .collect();
        let rows: Vec<&[String]> = lines.chunks(5).collect();
        let presets = of("close_weapon");
        assert_eq!(rows.len(), presets.len() - 1, "every row but the walker");
        for (seed_row, p) in rows.iter().zip(presets) {
            assert!(
                p.source.starts_with(seed_row[0].as_str()),
                "{} is {}",
                p.name,
                seed_row[0]
            );
            assert_eq!(
                parse_close_row(&seed_row[1..].join(" | "), "seed").unwrap(),
                parse_close_row(set(p, "row"), "preset").unwrap(),
                "{}",
                p.name
            );
        }
        assert!(text.contains("Necron Scarab Swarm (4 attacks)"));
        assert_eq!(set(preset("close_weapon", "scarab_swarm"), "attacks"), "4");
        assert!(text.contains("War droids / cyborgs (1 attack)"));
        assert!(text.contains("with \"claws\" get 2 attacks"));
        assert_eq!(set(preset("close_weapon", "aliens_claws"), "attacks"), "2");
        assert_eq!(set(preset("close_weapon", "tomb_spider"), "attacks"), "2");
        assert!(text.contains(
            "on a roll of \"10\" or less. (and get 2 attacks) No roll for injury, auto dead"
        ));
        assert_eq!(set(preset("close_weapon", "walker"), "attacks"), "2");
    }

    #[test]
    fn the_effect_of_hit_chart_is_the_seeds() {
        if !seed_text::available(SEED) {
            return;
        }
        let text = seed_text::seed(SEED);
        let lines = lines_between(&text, "EFFECT OF HIT CHART", "ACTION POINTS");
        // header "Hero", "common trooper", "Injury", then (hero, trooper, result) x3
        assert_eq!(&lines[1..4], ["Hero", "common trooper", "Injury"]);
        for band in lines[4..].chunks(3) {
            let effect = match band[2].as_str() {
                "Duck Back" => Effect::DuckBack,
                "Wounded" => Effect::Wounded,
                "Dead" => Effect::Dead,
                other => panic!("unknown result {other}"),
            };
            for (hero, cell) in [(true, &band[0]), (false, &band[1])] {
                let (lo, hi) = cell.split_once('-').unwrap_or((cell, cell));
                for roll in lo.parse::<i32>().unwrap()..=hi.parse().unwrap() {
                    assert_eq!(effect_of_hit(roll, hero), effect, "{roll} hero={hero}");
                }
            }
        }
    }

    #[test]
    fn the_vehicle_damage_table_is_the_seeds() {
        if !seed_text::available(SEED) {
            return;
        }
        let text = seed_text::seed(SEED);
        let lines = lines_between(&text, "Vehicle Damage Table 1D10", "If the damage has");
        let words = [
            (VehicleResult::Bounce, "Bounce off with no real damage"),
            (VehicleResult::Stunned, "\"Stunned\""),
            (VehicleResult::MinorGun, "A minor Gun taken out"),
            (VehicleResult::BiggestGun, "Biggest Gun taken out"),
            (
                VehicleResult::Immobilised,
                "Vehicle immobilised permanently",
            ),
            (
                VehicleResult::ImmobilisedAndGuns,
                "Vehicle Immobilised, and all guns destroyed",
            ),
            (VehicleResult::Burns, "Vehicle Burns"),
            (VehicleResult::Explodes, "Vehicle explodes"),
        ];
        let rows: Vec<&[String]> = lines[3..].chunks(2).collect();
        assert_eq!(rows.len(), words.len());
        for (row, (result, says)) in rows.iter().zip(words) {
            assert!(row[1].starts_with(says), "{:?}: {}", result, row[1]);
            let (lo, hi) = row[0].split_once('-').unwrap_or((&row[0], &row[0]));
            for d10 in lo.parse::<u32>().unwrap()..=hi.parse().unwrap() {
                assert_eq!(VehicleResult::from_d10(d10), result, "{d10}");
            }
        }
        assert!(text.contains(
            "If the damage has already been suffered, then take the next up, keep going up"
        ));
        assert!(rows[5][1].contains("with -1 to the roll") && rows[6][1].contains("no modifiers"));
    }

    #[test]
    fn the_quick_draw_table_is_the_seeds() {
        if !seed_text::available(SEED) {
            return;
        }
        let text = seed_text::seed(SEED);
        let lines = lines_between(
            &text,
            "Quick Draw INITIATIVE TABLE (1D10)",
            "SPECIAL SKILLS",
        );
        let expect = [
            ("Std armour (5+) ", quick_draw_armour(Armour::Std)),
            ("Storm Troop armour (4+) ", quick_draw_armour(Armour::Storm)),
            (
                "Power armour/ chimera/ sentinel ",
                quick_draw_armour(Armour::Power),
            ),
            ("Heavy Tank ", quick_draw_armour(Armour::Tank)),
            ("Hand Gun ", quick_draw_weapon("hand_gun")),
            ("Rifle shoulder weapon ", quick_draw_weapon("rifle")),
            ("Heavy Weapon ", quick_draw_weapon("heavy")),
            ("fast draw ", FAST_DRAW),
            ("Returning fire ahead of turn ", AHEAD_OF_TURN),
        ];
        assert_eq!(lines.len(), expect.len() + 1);
        for (line, (head, value)) in lines[1..].iter().zip(expect) {
            let v = line.strip_prefix(head).unwrap_or_else(|| panic!("{line}"));
            assert_eq!(
                v.trim_start_matches('+').parse::<i32>().unwrap(),
                value,
                "{line}"
            );
        }
    }

    #[test]
    fn rows_parse_and_bad_rows_are_named() {
        let r = parse_ranged_row(
            "30 | 18/8 L-10 | 17 / 6 (L-12) | 12/3 L-14 | 9/X L-16 | 2 | jam",
            "w",
        )
        .unwrap();
        assert_eq!(
            r.cells[0],
            RangedCell {
                target: Some(18),
                others: Some(8),
                lock_on: Some(10)
            }
        );
        assert_eq!(
            r.cells[3],
            RangedCell {
                target: Some(9),
                others: None,
                lock_on: Some(16)
            }
        );
        assert_eq!(r.ap, ApCost::Two);
        let e = parse_ranged_row("24 | 8 | 6 | 4 | 1/2 | jam", "weapon_row").unwrap_err();
        assert!(e.message.contains("3 armour values"), "{e}");
        let e = parse_ranged_row("24 | 8 | 6 | 4 | X+2 | 1 | jam", "weapon_row").unwrap_err();
        assert!(e.message.contains("X means no chance"), "{e}");
        assert!(parse_ranged_row("24 | 8 | 6 | 4 | x | 3 | jam", "w").is_err());
        assert!(parse_ranged_row("24 | 8 | 6 | 4 | x | 1 | melts", "w").is_err());
        assert!(parse_close_row("8 | 6 | 3", "w").is_err());
        assert_eq!(
            parse_close_row("n/a | 7 | 6 | 5", "w").unwrap(),
            [None, Some(7), Some(6), Some(5)]
        );
    }
}
