# Install and export rules (find_package(lngrad)).
