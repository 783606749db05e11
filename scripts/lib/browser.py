"""Headless Chromium for the browser checks (console_browser.py, web_browser.py), through Selenium
and Debian's chromedriver, with the step a walk is at: what a failed check names."""
import os

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait


class Walk:
    def __init__(self, shots, console_log=False):
        os.makedirs(shots, exist_ok=True)
        options = webdriver.ChromeOptions()
        for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,900"):
            options.add_argument(argument)
        options.binary_location = "/usr/bin/chromium"
        if console_log:
            options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        self.browser = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
        self.browser.implicitly_wait(5)
        self.shots = shots
        self.step = "start"

    def check(self, condition, what):
        """Fails the walk, naming its step and showing the page, unless `condition` holds."""
        if not condition:
            raise AssertionError(f"{self.step}: {what}\n--- page ---\n{self.browser.page_source[:3000]}")

    def wait_for(self, condition, what, seconds=15):
        """Waits until `condition()` holds, or fails the walk as ``check`` does."""
        try:
            WebDriverWait(self.browser, seconds).until(lambda driver: condition())
        except Exception:
            self.check(False, what)

    def text(self, element_id):
        """The element's text, or "" while there is none (or the page it was found on is being replaced)."""
        try:
            found = self.browser.find_elements(By.ID, element_id)
            return found[0].text if found else ""
        except Exception:
            return ""

    def shot(self, name):
        """Saves a screenshot of the page as `name`.png."""
        self.browser.save_screenshot(os.path.join(self.shots, f"{name}.png"))
