"""What the scene tests read from the canvas: mean colours in the scene's own points, the
colour the page gives a controller's card, and a tolerance for comparing them."""

# The mean colour of a rectangle of the canvas, in the scene's points (what the user sees); the
# scale comes from the scene's own size (a tablet's canvas is not the session's container).
MEAN_COLOUR = """
const [x, y, w, h] = arguments[0];
const canvas = document.getElementById('screen');
const k = canvas.width / window.sandbox.screenSize[0];
const data = canvas.getContext('2d').getImageData(Math.round(x * k), Math.round(y * k),
                                                   Math.round(w * k), Math.round(h * k)).data;
const mean = [0, 0, 0];
for (let i = 0; i < data.length; i += 4) { mean[0] += data[i]; mean[1] += data[i + 1]; mean[2] += data[i + 2]; }
return mean.map((v) => v / (data.length / 4));
"""

AT_REST = "['idle', 'finished', 'cancelled'].includes(window.sandbox.phase)"


def colour(page, rect):
    return page.js(MEAN_COLOUR, list(rect))


def card_colour(page, controller):
    return page.js("return window.sandbox.controllerColour(arguments[0])", controller)


def near(actual, expected, tolerance=6):
    return all(abs(a - e) <= tolerance for a, e in zip(actual, expected))
