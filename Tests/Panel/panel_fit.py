"""Every layout's screenshots, and no text past its tile's edge nor cut inside it (panel_check.py): the four layouts
in day and night (red on the phone), at phone and tablet sizes; then every layout at 360, 390 and 430 px upright and
844 x 390 on its side, each text's boxes inside its tile and inside every box of it that hides what overflows."""
import os
import time

from selenium.webdriver.common.by import By


def screenshots_and_fit(check, driver, shots, viewport, wait):
    """The screenshots, then every text inside its tile at four sizes."""
    # ---- Screenshots: every layout, day and night, phone and tablet ----
    driver.execute_script("localStorage.clear()")
    taken = 0
    for width, height, size in [(390, 844, "phone"), (1024, 768, "tablet")]:
        viewport(width, height)
        for theme in ["day", "night", "red"]:
            for index, layout in enumerate(["sailing", "racing", "navigation", "motion"]):
                if theme == "red" and (size == "tablet" or layout != "sailing"):
                    continue
                driver.execute_script(f"localStorage.setItem('telltale.theme', '\"{theme}\"');"
                                      f"localStorage.setItem('telltale.layout', '{index}')")
                driver.refresh()
                wait(lambda: driver.find_element(By.ID, "connection").text == "live", 10)
                time.sleep(2.5)
                driver.save_screenshot(os.path.join(shots, f"{layout}-{theme}-{size}.png"))
                taken += 1
    check(taken == 17, f"{taken} screenshots in {shots}")
    # ---- No text past its tile's edge (#42), nor cut inside it (#49): every layout at 360, 390 and 430 px upright and
    # on its side, each text's boxes (from the page's own layout) inside its tile and inside every box of it that hides
    # what overflows (a list that scrolls inside the tile: its box inside). A screenshot of each.
    driver.execute_script("localStorage.setItem('telltale.theme', '\"day\"')")
    driver.refresh()
    wait(lambda: driver.find_element(By.ID, "connection").text == "live", 10)
    clipped, looked = [], 0
    for width, height in [(360, 780), (390, 844), (430, 932), (844, 390)]:
        viewport(width, height)
        names = driver.execute_script("return telltale.layouts().map(l => l.name)")
        for index, name in enumerate(names):
            driver.execute_script(f"telltale.show({index})")
            time.sleep(0.8)
            looked += 1
            driver.save_screenshot(os.path.join(shots, f"fit-{name.lower()}-{width}x{height}.png"))
            clipped += [(width, name) + tuple(c) for c in driver.execute_script("""
                const out = [];
                for (const tile of document.querySelectorAll('.tile')) {
                  const box = tile.getBoundingClientRect();
                  if (box.width === 0) continue;
                  const walker = document.createTreeWalker(tile, NodeFilter.SHOW_TEXT);
                  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
                    if (!n.textContent.trim() || n.parentElement.closest('svg, [hidden]')) continue;
                    const range = document.createRange();
                    range.selectNodeContents(n);
                    // A list that scrolls inside its tile (the marks ahead) may run below the tile's foot; its box may
                    // not, nor may any text run past a side.
                    let scroller = n.parentElement;
                    while (scroller !== tile && !/auto|scroll/.test(getComputedStyle(scroller).overflowY))
                      scroller = scroller.parentElement;
                    const foot = scroller !== tile ? scroller.getBoundingClientRect().bottom : null;
                    // Nor past the side of a box inside the tile that hides what overflows it (the numbers beside a
                    // graphic: "4.29 k" for 4.29 kn was cut there, inside the tile).
                    const clips = [];
                    for (let e = n.parentElement; e && e !== tile; e = e.parentElement)
                      if (/hidden|clip/.test(getComputedStyle(e).overflowX)) clips.push(e.getBoundingClientRect());
                    for (const r of range.getClientRects())
                      if (r.width > 0 && (r.right > box.right - 1 || r.left < box.left + 1 ||
                                          (foot === null ? r.bottom : foot) > box.bottom + 1 ||
                                          clips.some(c => r.right > c.right + 1 || r.left < c.left - 1)))
                        out.push([tile.dataset.id, n.textContent.trim().slice(0, 16)]);
                  }
                }
                return out;""")]
    check(looked >= 24 and not clipped, f"no text past its tile's edge or cut inside it in {looked} views: every "
          "layout at 360, 390 and 430 px upright and 844 x 390 on its side", clipped[:6])
