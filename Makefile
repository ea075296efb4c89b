# Set-up is automatic: every target creates .venv and installs tokengen into it
# (editable, with the test extra) the first time, again when pyproject.toml changes, and anew
# when PYTHON is another Python version than the one .venv was made with
# (make PYTHON=python3.13 test after a 3.11 .venv rebuilds it with 3.13).
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
OUT    ?= meatshields.pdf
# X.Y of $(PYTHON) and of the venv's Python; STALE is the venv's when they differ
VERSION = -c 'import sys; print("%d.%d" % sys.version_info[:2])'
PYVER  := $(shell $(PYTHON) $(VERSION) 2>/dev/null)
STALE  := $(filter-out $(PYVER),$(shell [ -x $(BIN)/python ] && $(BIN)/python $(VERSION) 2>/dev/null))

.PHONY: pdf test docs bench fuzz clean data matrix FORCE

$(STAMP): pyproject.toml $(if $(STALE),FORCE)
	@if [ -n "$(STALE)" ]; then echo "$(VENV) was made with Python $(STALE); rebuilding it with $(PYTHON) ($(or $(PYVER),missing))"; \
	  rm -rf $(VENV); fi
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null || { \
	  echo "tokengen needs Python 3.11 or newer; $(PYTHON) is $$($(PYTHON) --version 2>&1 || echo missing)." \
	       "Give another one, e.g. make PYTHON=python3.12 $(MAKECMDGOALS)" >&2; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

pdf: $(STAMP)  ## build the default Meatshield sheet from token_defs.yaml
	$(BIN)/tokengen build token_defs.yaml -o $(OUT)

test: $(STAMP)  ## type-check the package (mypy, [tool.mypy]), build the docs site (--strict), then run the test suite
	$(BIN)/python -m mypy
	NO_MKDOCS_2_WARNING=1 $(BIN)/python -m mkdocs build --strict --quiet
	$(BIN)/python -m pytest

docs: $(STAMP)  ## the documentation site into site/ (mkdocs.yml; a broken link or an undocumented command fails it)
	NO_MKDOCS_2_WARNING=1 $(BIN)/python -m mkdocs build --strict

matrix: $(STAMP)  ## the suite from the sdist at the lowest declared versions (Python 3.11) and the newest (newest Python)
	bash .ci/matrix

bench: $(STAMP)  ## print speed, memory and size figures, and SVG fidelity with RESVG_TESTS=path (not a test)
	$(BIN)/python bench/bench.py
	$(BIN)/python bench/svgsuite.py  # SVG fidelity against resvg's suite: give its tests folder in RESVG_TESTS

fuzz: $(STAMP)  ## long hypothesis profile over generated catalogues, art, workbooks and fonts
	HYPOTHESIS_PROFILE=fuzz $(BIN)/python -m pytest tests/outputs/test_build_fuzz.py tests/outputs/test_build_fuzz_art.py tests/sources/test_table_fuzz.py tests/sources/test_fonts_fuzz.py -p no:cacheprovider

data:  ## refresh the package's copies of fonts/ and token_defs.yaml (tests/test_package.py checks them)
	cp fonts/DejaVuSans.ttf fonts/DejaVuSans-Bold.ttf fonts/DejaVuSans-Oblique.ttf fonts/DejaVuSans-BoldOblique.ttf fonts/LICENSE-DejaVu.txt tokengen/data/fonts/
	cp token_defs.yaml tokengen/data/catalogues/meatshields.yaml

clean:
	rm -rf $(VENV) .venv-bench $(OUT) out site .pytest_cache .hypothesis

.PHONY: mutate
mutate: $(STAMP)  ## mutation testing of the core modules, one at a time (slow; not part of make test); MODULES=tokengen/units.py for one
	$(BIN)/python -c 'import mutmut' 2>/dev/null || $(BIN)/python -m pip install --quiet 'mutmut>=3.8,<4'
	$(BIN)/python tools/mutate.py $(MODULES)
