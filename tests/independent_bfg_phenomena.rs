//! Battlefleet Gothic celestial phenomena (seed `004_d4c8740a73a9c193.txt`):
//! gas and dust clouds (the Eldar check), fighting in low orbit (the 4+ to
//! fire lances and nova cannons), battlezone generation. Exact values
//! derived by hand from the seed text, or by brute force over raw dice
//! here, never from the rule code, compared with krunch's exact evaluator.
//! Each test quotes the rule it reads.

#[path = "common/independent.rs"]
mod independent;

use independent::{binom, check, check_with, prob, seed_text, squash};

const SYS: &str = "bfg";
const SEED: &str = "004_d4c8740a73a9c193.txt";

/// The seed holds `sentence` (whitespace squashed), when the seed is here.
fn quoted(sentence: &str) {
    if let Some(text) = seed_text(SEED) {
        assert!(
            squash(&text).contains(&squash(sentence)),
            "the seed does not say: {sentence}"
        );
    }
}

// ---------------------------------------------------------------- gas clouds

/// GAS AND DUST CLOUDS: "Eldar and their kin can make a leadership check to
/// ignore all effects of gas clouds, and their escorts may re-roll this
/// result for free. If passed, it will take no damage nor suffer any
/// effects of being in contact with it." One Eldar cruiser at Leadership
/// 7: 2D6 <= 7 is 21/36 = 7/12, so it stays under the cloud 5/12. An
/// escort at 7 fails twice: (5/12)^2 = 25/144.
#[test]
fn gas_cloud_one_ship() {
    quoted(
        "Eldar and their kin can make a leadership check to ignore all effects of gas clouds, and their escorts may re-roll this result for free.",
    );
    let pass = prob(2, 6, |r| r[0] + r[1] <= 7);
    assert!((pass - 7.0 / 12.0).abs() < 1e-15);
    check(
        SYS,
        "gas_cloud",
        &[("leadership", "7")],
        "p_ignores",
        7.0 / 12.0,
    );
    check(
        SYS,
        "gas_cloud",
        &[("leadership", "7")],
        "mean_under_cloud",
        5.0 / 12.0,
    );
    // the escort's free re-roll, by brute force over both tries' 4 dice
    let escort_fails = prob(4, 6, |r| r[0] + r[1] > 7 && r[2] + r[3] > 7);
    assert!((escort_fails - 25.0 / 144.0).abs() < 1e-15);
    let escort = [("leadership", "7"), ("escort", "true")];
    check(SYS, "gas_cloud", &escort, "p_under_fire", 25.0 / 144.0);
}

/// "To ships in base contact, gas and dust clouds have the same effect as
/// a single Blast marker": a squadron of four Eldar escorts at Leadership
/// 8, each checking for itself (the default `each_ship`): a ship stays
/// under with q = (10/36)^2 = 25/324, so the number under is
/// Binomial(4, 25/324); the squadron is under fire ("even if only some of
/// the ships in a squadron have Blast markers in base contact") with
/// 1 - (299/324)^4. One check for the squadron (`squadron`): all four
/// under with 25/324, none otherwise.
#[test]
fn gas_cloud_escort_squadron() {
    quoted(
        "To ships in base contact, gas and dust clouds have the same effect as a single Blast marker in all respects (ie, on firing, movement, shields, Leadership and ordnance).",
    );
    quoted(
        "Normal Command check modifiers for enemy contacts and for being under fire apply to squadrons, even if only some of the ships in a squadron have Blast markers in base contact.",
    );
    let pairs = [("leadership", "8"), ("ships", "4"), ("escort", "true")];
    let q = 25.0 / 324.0;
    for k in 0..=4u64 {
        let metric = format!("under_cloud={k}");
        check(SYS, "gas_cloud", &pairs, &metric, binom(4, k, q));
    }
    check(SYS, "gas_cloud", &pairs, "mean_under_cloud", 4.0 * q);
    check(
        SYS,
        "gas_cloud",
        &pairs,
        "p_under_fire",
        1.0 - (1.0 - q).powi(4),
    );
    let one = [("gas_check", "squadron")];
    check_with(SYS, "gas_cloud", &pairs, &one, "under_cloud=4", q);
    check_with(SYS, "gas_cloud", &pairs, &one, "under_cloud=0", 1.0 - q);
    check_with(SYS, "gas_cloud", &pairs, &one, "p_under_fire", q);
    check_with(SYS, "gas_cloud", &pairs, &one, "mean_under_cloud", 4.0 * q);
}

/// Leadership past the dice: at 12 an Eldar ship always passes, at 1 it
/// never does (2D6 is at least 2), escort or not.
#[test]
fn gas_cloud_leadership_limits() {
    let high = [("leadership", "12"), ("ships", "6")];
    check(SYS, "gas_cloud", &high, "p_all_ignore", 1.0);
    let low = [("leadership", "1"), ("ships", "2"), ("escort", "true")];
    check(SYS, "gas_cloud", &low, "under_cloud=2", 1.0);
}

// ----------------------------------------------------------------- low orbit

/// FIGHTING IN LOW ORBIT: "lances and nova cannons require a 4+ roll to
/// fire". Three lances, each its own D6 (the default `each_lance`): the
/// lances that fire are Binomial(3, 1/2): 1/8, 3/8, 3/8, 1/8, checked
/// against every roll of three dice.
#[test]
fn low_orbit_three_lances() {
    quoted(
        "all firepower shooting in low orbit suffers one column shift to the right, lances and nova cannons require a 4+ roll to fire and torpedoes may not be fired by ships at all.",
    );
    let pairs = [("weapon", "lances"), ("strength", "3")];
    for k in 0..=3usize {
        let by_dice = prob(3, 6, |r| r.iter().filter(|&&x| x >= 4).count() == k);
        assert!((by_dice - binom(3, k as u64, 0.5)).abs() < 1e-15);
        check(SYS, "low_orbit", &pairs, &format!("fired={k}"), by_dice);
    }
    check(SYS, "low_orbit", &pairs, "mean_fired", 1.5);
    check(SYS, "low_orbit", &pairs, "p_fires", 7.0 / 8.0);
    check(SYS, "low_orbit", &pairs, "p_all_fire", 1.0 / 8.0);
}

/// One 4+ for the weapon (`each_weapon`): three lances all fire or none,
/// 1/2 each; the mean is the same 3/2. A nova cannon is one shot: 1/2.
#[test]
fn low_orbit_one_roll_and_nova_cannon() {
    let pairs = [("weapon", "lances"), ("strength", "3")];
    let one = [("orbit_fire_roll", "each_weapon")];
    check_with(SYS, "low_orbit", &pairs, &one, "fired=3", 0.5);
    check_with(SYS, "low_orbit", &pairs, &one, "fired=1", 0.0);
    check_with(SYS, "low_orbit", &pairs, &one, "mean_fired", 1.5);
    let nova = [("weapon", "nova_cannon")];
    check(SYS, "low_orbit", &nova, "p_fires", 0.5);
    check(SYS, "low_orbit", &nova, "mean_fired", 0.5);
}

// ---------------------------------------------------------------- battlezones

/// Method 2: "roll a D6 for each area. On a 4 or more the area contains
/// celestial phenomena"; "Roll a D6 to determine which of the generators
/// to use". One area, the generator rolled: phenomena 1/2; a solar flare
/// from rows "1 Solar flare 2 Solar flare" (Flare Region, 2/6), "1 Solar
/// flare" (Mercurial Zone, 1/6), "1 Roll again: 1-3=Radiation burst
/// 4-6=solar flare" (Inner Biosphere, 1/12): 1/2 x (1/3 + 1/6 + 1/12)/6
/// = 7/144.
#[test]
fn battlezone_one_area_rolled() {
    quoted(
        "Next roll a D6 for each area. On a 4 or more the area contains celestial phenomena which is determined using the appropriate battlezone generator.",
    );
    let one = [("areas", "1")];
    check(SYS, "battlezone", &one, "mean_areas_with_phenomena", 0.5);
    check(SYS, "battlezone", &one, "p_solar_flare", 7.0 / 144.0);
    check(SYS, "battlezone", &one, "mean_solar_flares", 7.0 / 144.0);
}

/// "In all cases a maximum of one planet will be present on the tabletop:
/// if a second planet is generated roll again." Two areas of the Primary
/// Biosphere (rows "3 Gas/dust clouds", read as one, "4 D3 gas/dust
/// clouds", "5 Planet", "6 Planet"): a planet per area 1/2 x 2/6 = 1/6
/// while none is there, so P(a planet) = 1 - (5/6)^2 = 11/36. Gas clouds:
/// the first area 1/2 x (1 + 2)/6 = 1/4; the second 1/4 without a planet
/// (5/6), and with one (1/6) rolled again among rows 1-4: 1/2 x (1 + 2)/4
/// = 3/8; in all 1/4 + 5/6 x 1/4 + 1/6 x 3/8 = 25/48 (1/2 if the planet
/// rows were not rolled again).
#[test]
fn battlezone_one_planet_at_most() {
    quoted(
        "In all cases a maximum of one planet will be present on the tabletop: if a second planet is generated roll again.",
    );
    let two = [("areas", "2"), ("generator", "primary_biosphere")];
    check(SYS, "battlezone", &two, "p_planet", 11.0 / 36.0);
    check(SYS, "battlezone", &two, "mean_gas_clouds", 25.0 / 48.0);
    check(SYS, "battlezone", &two, "p_large_planet", 0.0);
}

/// The rings read two ways: the footnote, "If a large planet is generated,
/// it will have rings around it on a D6 roll of 4 or more", and RINGED
/// PLANETS, "roll a D6. On a 5 or 6 it has rings around it. Place D3 rings
/// around the planet, then roll a D6 to see what sort each ring is: 1-4 =
/// gas/dust, 5-6 = asteroid." One area of the Outer Reaches: a large
/// planet 1/2 x 2/6 x 3/6 = 1/12; rings on 5-6 (default) 1/12 x 1/3 =
/// 1/36, on 4+ (`four_or_more`) 1/24; the rings are D3 (mean 2), gas 4/6
/// of them: 1/36 x 2 x 2/3 = 1/27 gas rings, 1/54 asteroid rings (1/18 and
/// 1/36 on 4+). Asteroid fields from "1 D3+1 asteroid fields 2 D3 asteroid
/// fields": 1/2 x (3 + 2)/6 = 5/12.
#[test]
fn battlezone_rings_both_readings() {
    quoted(
        "If a large planet is generated, it will have rings around it on a D6 roll of 4 or more.",
    );
    quoted(
        "If there is a large planet on the table roll a D6. On a 5 or 6 it has rings around it.",
    );
    let p = [("areas", "1"), ("generator", "outer_reaches")];
    check(SYS, "battlezone", &p, "p_large_planet", 1.0 / 12.0);
    check(SYS, "battlezone", &p, "p_rings", 1.0 / 36.0);
    check(SYS, "battlezone", &p, "mean_gas_rings", 1.0 / 27.0);
    check(SYS, "battlezone", &p, "mean_asteroid_rings", 1.0 / 54.0);
    check(SYS, "battlezone", &p, "mean_asteroid_fields", 5.0 / 12.0);
    let four = [("rings_on", "four_or_more")];
    check_with(SYS, "battlezone", &p, &four, "p_rings", 1.0 / 24.0);
    check_with(SYS, "battlezone", &p, &four, "mean_gas_rings", 1.0 / 18.0);
    check_with(
        SYS,
        "battlezone",
        &p,
        &four,
        "mean_asteroid_rings",
        1.0 / 36.0,
    );
}
