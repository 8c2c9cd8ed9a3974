"""Float buffers a recorded step changed without any recorded step writing them: an
operator that writes an argument its schema does not mark written
(recorder.HIDDEN_WRITES lists the known ones), or eager code outside the recording."""


def unrecorded_updates(before, buffers, stale):
    """Problems for the float buffers the recorded step changed although no recorded step
    writes them: an operator that writes an argument without its schema saying so
    (recorder.HIDDEN_WRITES lists the known ones), or eager code outside the recording."""
    out = []
    for name, old in before:
        key = f"updated.{name}"
        if key in stale and not same_values(old, buffers[name]):
            out.append(f"buffer {name} changed during the recorded step, but no recorded step writes it "
                       "(an operator wrote it without its schema marking the argument written? see "
                       "npusim.recorder.HIDDEN_WRITES)")
    return out


def same_values(a, b):
    import torch

    a, b = a.detach().cpu(), b.detach().cpu()
    return a.shape == b.shape and bool(torch.isclose(a, b, rtol=0, atol=0, equal_nan=True).all())
