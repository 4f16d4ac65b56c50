"""Organizer pages at phone width (390 px) in real Chromium: nothing sits beyond the
right edge unless it is inside a box that scrolls sideways AND shows a visible cue that
it does (a "scroll sideways" hint); no text is clipped; the rank-range plot keeps a
readable size (it scrolls in its own box rather than shrinking)."""

from __future__ import annotations

import os

import pytest

from tests.flows.browser.conftest import save_screenshot, settled_width

os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = 390

# Every visible element: inside the window, or inside an overflowing scroll box whose
# cue (an element with data-scroll-cue naming the box) is visible in the window.
OVERFLOW = """() => {
  const W = document.documentElement.clientWidth;
  const visible = (e) => {
    const r = e.getBoundingClientRect(), s = getComputedStyle(e);
    return r.width > 1 && r.height > 1 && s.visibility !== 'hidden' && s.display !== 'none'
      && r.right > 0 && r.left < W;
  };
  const bad = [];
  for (const e of document.querySelectorAll('main *')) {
    const r = e.getBoundingClientRect();
    if (r.width <= 1 || r.height <= 1) continue;  // visually hidden labels
    if (r.right <= W + 1 && r.left >= -1) continue;
    let box = e.parentElement, ok = false;
    while (box && box !== document.body) {
      const s = getComputedStyle(box);
      if (['auto', 'scroll'].includes(s.overflowX) && box.scrollWidth > box.clientWidth) {
        const cue = box.id && document.querySelector('[data-scroll-cue="' + box.id + '"]');
        const inside = box.getBoundingClientRect().right <= W + 1;
        ok = Boolean(cue && visible(cue) && inside);
        break;
      }
      box = box.parentElement;
    }
    if (!ok) bad.push(e.tagName + '.' + e.className + ' "' + (e.textContent || '').trim().slice(0, 30) + '" right=' + Math.round(r.right));
  }
  return bad.slice(0, 8);
}"""

# Text clipped by its own box (overflow hidden), or a caption that runs past the window
# (a sentence is read, not scrolled: it wraps within the window above its table).
CLIPPED = """() => [...document.querySelectorAll('main caption, main figcaption, main .muted')]
  .filter(e => e.getBoundingClientRect().width > 1
               && ((e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== 'auto')
                   || (e.tagName === 'CAPTION'
                       && e.getBoundingClientRect().right > document.documentElement.clientWidth + 1)))
  .map(e => e.tagName + ' ' + e.textContent.trim().slice(0, 40))"""


def test_organizer_pages_fit_390px_or_scroll_with_a_visible_cue(new_page, live_server):
    from annotations.models import CampaignMembership
    from tests.annotations.designer_data import add_member, judged_world

    people, campaign, run = judged_world()
    owner = people["owner"]
    owner.set_password("owner-pass")
    owner.save()
    add_member(campaign, owner, CampaignMembership.Role.OWNER)
    worker = campaign.workers.first()
    assert worker is not None
    worker.excluded, worker.exclusion_reason = True, "Same score for every output, twice"
    worker.save()
    page = new_page(width=PHONE, height=844)
    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Username").fill("owner")
    page.get_by_label("Password").fill("owner-pass")
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_load_state("load")
    slug = campaign.slug
    pages = {
        "campaign": f"/campaigns/{slug}/",
        "criteria": f"/campaigns/{slug}/criteria/",
        "members": f"/campaigns/{slug}/members/",
        "monitor": f"/campaigns/{slug}/monitor/",
        "payments": f"/campaigns/{slug}/payments/",
        "rankings": f"/rankings/campaign/{slug}/",
        "ranking-run": f"/rankings/{run.pk}/",
    }
    problems = {}
    for name, path in pages.items():
        response = page.goto(live_server.url + path)
        assert response is not None and response.status == 200, path
        assert settled_width(page, PHONE) <= PHONE, name
        page.wait_for_timeout(150)  # the cues are placed once the layout settled
        save_screenshot(page, f"organizer-390-{name}")
        bad = page.evaluate(OVERFLOW) + page.evaluate(CLIPPED)
        if bad:
            problems[name] = bad
    assert problems == {}
    # The rank-range plot keeps a readable size: at least 560 px wide, scrolled.
    page.goto(live_server.url + f"/rankings/{run.pk}/")
    plot = page.locator("img.plot")
    plot.wait_for()
    assert plot.evaluate("e => e.getBoundingClientRect().width") >= 560
    # Each row's actions are reached by scrolling its box: the Exclude button.
    page.goto(live_server.url + f"/campaigns/{slug}/monitor/")
    cue = page.locator('[data-scroll-cue="workers-table"]')
    assert cue.is_visible() and "sideways" in cue.inner_text()
    exclude = page.get_by_role("button", name="Exclude").first
    exclude.scroll_into_view_if_needed()
    box = exclude.bounding_box()
    assert box is not None and box["x"] + box["width"] <= PHONE
