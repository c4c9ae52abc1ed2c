package dev.fastpipe.streaming;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

/**
 * The settings of an immutable settings record, found by reflection so that a setting added there
 * cannot be left out of what reads them all (a run plan's text, a resume journal's identity). A
 * component whose type is a record declared inside the settings record is a group: its components
 * are settings named {@code group.name}; every other component is a setting named {@code name}.
 */
public final class SettingFields {
  private SettingFields() {}

  /** One setting: its name ({@code group.name} or {@code name}), its group (null: none) and its component. */
  public record Field(String name, RecordComponent group, RecordComponent component) {
    public Class<?> type() {
      return component.getType();
    }

    /** This setting's value in {@code settings}. */
    public Object get(Record settings) {
      Object holder = group == null ? settings : read(group, settings);
      return read(component, holder);
    }
  }

  /** The settings of {@code type}, in declaration order. */
  public static List<Field> of(Class<? extends Record> type) {
    List<Field> out = new ArrayList<>();
    for (RecordComponent c : type.getRecordComponents()) {
      if (isGroup(type, c)) {
        for (RecordComponent leaf : c.getType().getRecordComponents()) out.add(new Field(c.getName() + "." + leaf.getName(), c, leaf));
      } else {
        out.add(new Field(c.getName(), null, c));
      }
    }
    return out;
  }

  /** A {@code type} made of {@code value(field)} for each of its settings (through the canonical constructors). */
  public static <R extends Record> R assemble(Class<R> type, Function<Field, Object> value) {
    List<Object> args = new ArrayList<>();
    for (RecordComponent c : type.getRecordComponents()) {
      if (isGroup(type, c)) {
        List<Object> groupArgs = new ArrayList<>();
        for (RecordComponent leaf : c.getType().getRecordComponents()) groupArgs.add(value.apply(new Field(c.getName() + "." + leaf.getName(), c, leaf)));
        args.add(construct(c.getType(), groupArgs));
      } else {
        args.add(value.apply(new Field(c.getName(), null, c)));
      }
    }
    return type.cast(construct(type, args));
  }

  private static boolean isGroup(Class<?> type, RecordComponent c) {
    return c.getType().isRecord() && c.getType().getEnclosingClass() == type;
  }

  private static Object construct(Class<?> type, List<Object> args) {
    Class<?>[] types = Arrays.stream(type.getRecordComponents()).map(RecordComponent::getType).toArray(Class<?>[]::new);
    try {
      return type.getDeclaredConstructor(types).newInstance(args.toArray());
    } catch (InvocationTargetException e) {
      if (e.getCause() instanceof RuntimeException re) throw re;
      throw new IllegalStateException(e.getCause());
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(e);
    }
  }

  private static Object read(RecordComponent c, Object holder) {
    try {
      return c.getAccessor().invoke(holder);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(e);
    }
  }
}
