"""Claims K1-K3: McDermott et al., *A Closer Look at AUROC and AUPRC under Class Imbalance*
(NeurIPS 2024), as its first author states Theorem 1 and Lemma 1.1 in the notebook the paper links.
"""
