"""The shore's login in Debian's chromium at a phone's width (shore_accounts_check.py): the panel asked for, the
login page shown instead; a wrong password said on it; the right one, then the Fleet layout with the owner's boat
alone in its table."""
from browser import chromium
from support import wait_for


def phone_login(check, web, name, password, expected):
    driver = chromium(390, 844)
    try:
        driver.get(f"http://127.0.0.1:{web}/")
        shown = wait_for(lambda: driver.current_url.endswith("/login.html")
                         and driver.find_elements("id", "password"), 10)
        driver.find_element("id", "name").send_keys(name)
        driver.find_element("id", "password").send_keys("not the password")
        driver.find_element("id", "submit").click()
        said = wait_for(lambda: "wrong name or password" in driver.find_element("id", "said").text, 10)
        field = driver.find_element("id", "password")
        field.clear()
        field.send_keys(password)
        driver.find_element("id", "submit").click()
        rows = "return [...document.querySelectorAll('.fleet-table tbody tr')].map(r => r.cells[0].innerText.trim())"
        listed = wait_for(lambda: not driver.current_url.endswith("/login.html")
                          and driver.execute_script(rows) == expected, 30, step=0.5)
        cookie = driver.get_cookie("telltale_session") or {}
        check(shown and said and listed and cookie.get("httpOnly") and cookie.get("sameSite") == "Strict",
              f"chromium at 390 px: the panel sends to the login page; a wrong password said there; {name} logged in "
              f"sees the Fleet layout with {', '.join(expected)} alone (the cookie HttpOnly, SameSite "
              f"{cookie.get('sameSite')})",
              {"url": driver.current_url, "rows": driver.execute_script(rows),
               "said": driver.find_element("id", "said").text if driver.find_elements("id", "said") else ""})
    finally:
        driver.quit()
