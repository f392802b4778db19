"""Human verification of built datasets: sampling, Label Studio and CSV round trips, agreement."""
