"""BibTeX entries that dataset cards cite."""

CREPE = (
    "@inproceedings{ma2023crepe,\n  title={CREPE: Can Vision-Language Foundation Models Reason "
    "Compositionally?},\n  author={Ma, Zixian and Hong, Jerry and Gul, Mustafa Omer and Gandhi, Mona "
    "and Gao, Irena and Krishna, Ranjay},\n  booktitle={CVPR},\n  year={2023}\n}"
)
