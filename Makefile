# crepe-datasets: `make demo` sets everything up and builds the demo datasets; `make test` runs the suite.
SHELL := /bin/bash
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(PY) -m pip
# A torch + torchvision pair that installs together (on this project's machines from files on
# disk); override with `make setup TORCH_SPEC="torch torchvision"` elsewhere.
TORCH_SPEC ?= torch==2.14.1 torchvision==0.29.1
STAMP := $(VENV)/.crepe-installed
DOCS_STAMP := $(VENV)/.crepe-docs-installed
WORDNET := .nltk_data/corpora/wordnet/lexnames
DEMO_OUT ?= out/demo
# Label Studio (human verification tests): its own virtualenv, since its pins differ from ours.
LS_VENV ?= .ls-venv
LS_SPEC ?= label-studio==1.23.2
LS_STAMP := $(LS_VENV)/.crepe-installed

.PHONY: setup java label-studio demo test test-fast wheel-smoke lint format docs bench clean

setup: $(STAMP) $(WORDNET) java

$(STAMP): setup.cfg setup.py pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --disable-pip-version-check $(TORCH_SPEC) -e ".[all]" 2>&1 | grep -v "^WARNING: Location" || true
	$(PY) -c "import torch, torchvision, spacy, datasets, open_clip, nltk, lemminflect, mteb" \
	  || { echo "setup: the Python packages did not install (see the pip output above)"; exit 1; }
	@touch $@

# WordNet for NLTK: Debian's files copied into .nltk_data (no nltk.download needed offline).
$(WORDNET): | $(STAMP)
	@if [ ! -f /usr/share/wordnet/data.noun ] && command -v apt-get >/dev/null && [ "$$(id -u)" = 0 ]; then \
	  (apt-get install -y -qq wordnet-base wordnet-sense-index >/dev/null 2>&1 || \
	   (apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq wordnet-base wordnet-sense-index >/dev/null)); \
	fi
	$(PY) -m crepe_datasets.infra.resources

# A real Label Studio server for the annotation round-trip tests, plus a migrated template
# database (tests copy it instead of running every migration; scripts/bench/label_studio_start.py).
label-studio: $(LS_STAMP)

$(LS_STAMP):
	@test -x $(LS_VENV)/bin/python || $(PYTHON) -m venv $(LS_VENV)
	$(LS_VENV)/bin/pip install --quiet --disable-pip-version-check "$(LS_SPEC)" 2>&1 | grep -v "^WARNING: Location" || true
	rm -rf $(LS_VENV)/template
	$(LS_VENV)/bin/label-studio version --data-dir $(LS_VENV)/template >/dev/null 2>&1 \
	  || { echo "label-studio: the template database could not be made"; exit 1; }
	@touch $@

# A Java runtime for the COCO caption scorer (pycocoevalcap's PTB tokenizer and METEOR).
java:
	@command -v java >/dev/null || { \
	  if command -v apt-get >/dev/null && [ "$$(id -u)" = 0 ]; then \
	    apt-get install -y -qq default-jre-headless >/dev/null 2>&1 || \
	    (apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq default-jre-headless >/dev/null); \
	  else echo "setup: no Java runtime; \`crepe evaluate-captions\` needs one (apt-get install default-jre-headless)"; fi; }

demo: setup
	$(VENV)/bin/crepe demo --out $(DEMO_OUT)

test: setup label-studio
	$(PY) -m pytest -q

# The quick loop while editing: every test but those marked `slow` (builds, models, servers).
test-fast: setup
	$(PY) -m pytest -q -m "not slow"

# The installed wheel, not the checkout: fresh venv outside the repository, `crepe doctor` + `crepe demo`.
wheel-smoke: setup
	PYTHON=$(PY) bash .ci/wheel-smoke

lint: setup
	$(VENV)/bin/ruff check . && $(VENV)/bin/ruff format --check .

# The documentation site (mkdocs-material, the `docs` extra) into site/; --strict fails on any
# broken link or missing page.
docs: $(DOCS_STAMP)
	NO_MKDOCS_2_WARNING=1 $(VENV)/bin/mkdocs build --strict --site-dir site

$(DOCS_STAMP): setup.cfg | $(STAMP)
	$(PIP) install --quiet --disable-pip-version-check -e ".[docs]" 2>&1 | grep -v "^WARNING: Location" || true
	$(PY) -c "import mkdocs, material" \
	  || { echo "docs: mkdocs-material did not install (see the pip output above)"; exit 1; }
	@touch $@

format: setup
	$(VENV)/bin/ruff check --fix . && $(VENV)/bin/ruff format .

bench: setup
	@for script in scripts/bench/*.py; do echo "== $$script"; $(PY) $$script || exit 1; done

clean:
	rm -rf $(VENV) $(LS_VENV) .nltk_data out site .pytest_cache .ruff_cache *.egg-info
